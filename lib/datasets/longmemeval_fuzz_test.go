package datasets_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/inputerr"
)

// FuzzReadLongMemEval: on any input the LongMemEval reader returns a folder
// or an error, never panics; an error about the input names the file and a
// line within it; a folder it returns builds (chunks, gold, files) without
// a panic, and a second read of the same bytes gives the same question and
// source counts.
func FuzzReadLongMemEval(f *testing.F) {
	for _, name := range []string{"testdata/longmemeval_small.json", "testdata/longmemeval_long.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	empty := lmeSession()
	f.Add([]byte("[\n" + lmeQuestion("q1", []string{"a/b", "a_b"}, []string{empty, empty}, []string{"a/b"}) + "\n]"))
	f.Add([]byte("[\n" + lmeQuestion("q1_abs", []string{"s"}, []string{lmeSession("hi", "hello")}, nil) + "\n]"))
	f.Add([]byte("[]"))
	f.Add([]byte("[{}]"))
	f.Add([]byte("[\n]\n]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "lme.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		folder, _, err := datasets.ReadLongMemEval(path)
		if err != nil {
			var ie *inputerr.Error
			if errors.As(err, &ie) && (ie.File != "lme.json" || ie.Line < 1 || ie.Line > 1+countLines(data)) {
				t.Fatalf("error %v names %s:%d, outside the %d-line input", err, ie.File, ie.Line, 1+countLines(data))
			}
			return
		}
		if _, err := folder.Build(); err != nil {
			return
		}
		again, _, err := datasets.ReadLongMemEval(path)
		if err != nil || len(again.Questions) != len(folder.Questions) || len(again.Sources) != len(folder.Sources) {
			t.Fatalf("a second read differs: %v", err)
		}
	})
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
