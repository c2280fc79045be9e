package jsonl_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
)

func collect(t *testing.T, in string) ([]string, error) {
	t.Helper()
	var got []string
	err := jsonl.Lines("f.jsonl", strings.NewReader(in), func(line int, data []byte) error {
		got = append(got, fmt.Sprintf("%d:%s", line, data))
		return nil
	})
	return got, err
}

func TestLines(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"blank lines skipped, numbers kept", "\n{}\n  \n[1]\n", "2:{} 4:[1]"},
		{"CRLF and no final newline", "{}\r\n{\"a\":1}", `1:{} 2:{"a":1}`},
		{"byte-order mark", "\ufeff{}\n", "1:{}"},
		{"a line longer than any buffer", long + "\n", "1:" + long},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := collect(t, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("lines %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func TestLinesRejectsInvalidUTF8WithItsLine(t *testing.T) {
	_, err := collect(t, "{}\n\"\xff\"\n")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != "f.jsonl" || ie.Line != 2 {
		t.Fatalf("err = %v, want f.jsonl:2", err)
	}
	if got, want := err.Error(), "f.jsonl:2: expected valid UTF-8"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

func TestLinesStopsAtTheCallbacksError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := jsonl.Lines("f", strings.NewReader("1\n2\n3\n"), func(int, []byte) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("err %v after %d calls, want stop after 1", err, calls)
	}
}

// TestLinesReportsAReadErrorBeforeThePartialLine: when the reader fails in
// the middle of a line (a truncated gzip stream), the error is the reader's,
// with the line it stopped in; the partial line is not handed on, so it is
// not reported as bad JSON or invalid UTF-8 (a cut may split a character).
func TestLinesReportsAReadErrorBeforeThePartialLine(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{}\n{\"a\":\"\xe3\x81"), iotest.ErrReader(io.ErrUnexpectedEOF))
	var got []int
	err := jsonl.Lines("f.jsonl.gz", r, func(line int, _ []byte) error {
		got = append(got, line)
		return nil
	})
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.HasPrefix(err.Error(), "f.jsonl.gz:2: ") || len(got) != 1 {
		t.Errorf("err %v after lines %v, want f.jsonl.gz:2: unexpected EOF after line 1 only", err, got)
	}
}

func TestWriter(t *testing.T) {
	type row struct {
		Z string         `json:"z"`
		A map[string]int `json:"a,omitempty"`
	}
	var b strings.Builder
	w := jsonl.NewWriter(&b)
	for _, v := range []any{row{Z: "<a & b>"}, row{Z: "日本", A: map[string]int{"y": 2, "x": 1}}, 3} {
		if err := w.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q before Flush", b.String())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `{"z":"<a & b>"}` + "\n" + `{"z":"日本","a":{"x":1,"y":2}}` + "\n" + "3\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if err := jsonl.NewWriter(io.Discard).Write(func() {}); err == nil {
		t.Error("a func encoded without an error")
	}
}

func TestWriteAllAndMarshal(t *testing.T) {
	var b strings.Builder
	if err := jsonl.WriteAll(&b, []string{"a<b", "c"}); err != nil {
		t.Fatal(err)
	}
	if want := "\"a<b\"\n\"c\"\n"; b.String() != want {
		t.Errorf("WriteAll: got %q, want %q", b.String(), want)
	}
	got, err := jsonl.Marshal(map[string]string{"k": "&"})
	if err != nil || string(got) != `{"k":"&"}` {
		t.Errorf("Marshal: got %q, %v", got, err)
	}
}

func ExampleWriteIndented() {
	_ = jsonl.WriteIndented(os.Stdout, map[string]any{"name": "a&b", "n": []int{1}})
	// Output:
	// {
	//   "n": [
	//     1
	//   ],
	//   "name": "a&b"
	// }
}
