package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var regen = flag.Bool("regen", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name byte for byte, or rewrites the
// file when -regen is set.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *regen {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -regen to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
