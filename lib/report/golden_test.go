package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenFile returns the golden testdata/name and true, or rewrites it with
// got and returns false when -update is set.
func goldenFile(t *testing.T, name string, got []byte) ([]byte, bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return nil, false
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	return want, true
}

// checkGolden compares got with testdata/name byte for byte, or rewrites the
// file when -update is set.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	if want, ok := goldenFile(t, name, got); ok && !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
