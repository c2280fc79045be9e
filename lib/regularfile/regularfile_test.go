//go:build unix

package regularfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/linemem/linemem/lib/regularfile"
)

func TestRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(fifo, link)
	for _, tc := range []struct{ name, path, what string }{
		{"named pipe", fifo, "a named pipe"},
		{"link to a named pipe", link, "a named pipe"},
		{"character device", "/dev/null", "a character device"},
		{"folder", dir, "a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for name, read := range map[string]func(string) error{
				"ReadFile": func(p string) error { _, err := regularfile.ReadFile(p); return err },
				"Check":    regularfile.Check,
			} {
				done := make(chan error, 1)
				go func() { done <- read(tc.path) }()
				select {
				case err := <-done:
					var nr *regularfile.NotRegularError
					if !errors.As(err, &nr) || nr.What != tc.what {
						t.Errorf("%s(%s) = %v, want a NotRegularError for %s", name, tc.path, err, tc.what)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("%s(%s) still blocked after 5 s", name, tc.path)
				}
			}
		})
	}
}

func TestReadsRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.json")
	os.WriteFile(path, []byte("[]\n"), 0o644)
	link := path + ".link"
	os.Symlink(path, link)
	for _, p := range []string{path, link} {
		b, err := regularfile.ReadFile(p)
		if err != nil || string(b) != "[]\n" {
			t.Errorf("ReadFile(%s) = %q, %v; want the file's bytes", p, b, err)
		}
		if err := regularfile.Check(p); err != nil {
			t.Errorf("Check(%s) = %v, want nil", p, err)
		}
	}
	if _, err := regularfile.ReadFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotExist", err)
	}
}
