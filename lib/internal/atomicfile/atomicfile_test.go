package atomicfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/internal/atomicfile"
)

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path := filepath.Join(dir, "index.bin")
	write := func(text string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, text); return err }
	}
	if err := atomicfile.Write(path, write("old")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{{dir, 0o700 | os.ModeDir}, {path, 0o600}} {
		info, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode() != c.mode {
			t.Errorf("%s: mode %v, want %v", c.path, info.Mode(), c.mode)
		}
	}

	failed := errors.New("disk full")
	if err := atomicfile.Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return failed
	}); !errors.Is(err, failed) {
		t.Errorf("error %v, want %v", err, failed)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old %q", b, "old")
	}

	if err := atomicfile.Write(path, write("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file holds %q, want %q", b, "new")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want the file only (no temporary file left)", len(entries))
	}
}

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "atomicfile-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cache", "greeting.txt")
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := fmt.Fprintln(w, "hello")
		return err
	})
	b, _ := os.ReadFile(path)
	fmt.Print(string(b), err)
	// Output:
	// hello
	// <nil>
}
