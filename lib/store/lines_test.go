package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/linemem/linemem/lib/jsonl"
)

// TestParallelLinesAgreesWithJSONL holds parallelLines to jsonl.Lines: the
// same lines with the same numbers in the same order, and the same first
// error, on inputs spanning several batches, with lines longer than a batch.
func TestParallelLinesAgreesWithJSONL(t *testing.T) {
	many := strings.Repeat(`{"k": "abcdefghij"}`+"\n\n  \r\n", lineBatchBytes/12)
	long := strings.Repeat("y", lineBatchBytes+17)
	for _, tc := range []struct{ name, in string }{
		{"empty", ""},
		{"blank only", "\n \n\t\n"},
		{"byte-order mark, CRLF, no final newline", "\ufeff{}\r\n\n[1]"},
		{"several batches", many},
		{"a line longer than a batch", "a\n" + long + "\nb\n" + long},
		{"invalid UTF-8 past the first batch", many + "ok\n\xff\nnever"},
		{"parse error past the first batch", many + "ok\nbad line\nbad again"},
		{"each error past the first batch", many + "stop\nbad line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parse := func(line int, data []byte) (string, error) {
				if strings.HasPrefix(string(data), "bad") {
					return "", fmt.Errorf("line %d is bad", line)
				}
				return fmt.Sprintf("%d:%s", line, data), nil
			}
			var want, got []string
			each := func(out *[]string) func(line int, v string) error {
				return func(line int, v string) error {
					if strings.HasSuffix(v, ":stop") {
						return fmt.Errorf("stopped at %d", line)
					}
					*out = append(*out, v)
					return nil
				}
			}
			wantErr := jsonl.Lines("f.jsonl", strings.NewReader(tc.in), func(line int, data []byte) error {
				v, err := parse(line, data)
				if err != nil {
					return err
				}
				return each(&want)(line, v)
			})
			gotErr := parallelLines("f.jsonl", iotest.HalfReader(strings.NewReader(tc.in)), parse, each(&got))
			if !slices.Equal(got, want) {
				t.Errorf("lines differ: got %d, want %d", len(got), len(want))
			}
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("error = %v, want %v", gotErr, wantErr)
			}
		})
	}
	t.Run("read error", func(t *testing.T) {
		broken := iotest.TimeoutReader(strings.NewReader("a\nb\n" + strings.Repeat("c", 10)))
		err := parallelLines("f.jsonl", broken, func(int, []byte) (int, error) { return 0, nil }, func(int, int) error { return nil })
		if !errors.Is(err, iotest.ErrTimeout) || !strings.HasPrefix(err.Error(), "f.jsonl:") {
			t.Errorf("error = %v, want the read error with the file name", err)
		}
	})
}
