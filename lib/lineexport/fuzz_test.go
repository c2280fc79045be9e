package lineexport_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/lineexport"
)

// addSeeds adds every file matching pattern to the fuzz corpus.
func addSeeds(f *testing.F, pattern string) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkResult asserts the invariants every reader result keeps: an error is
// an *InputError naming the file, and every message is complete (spec §1).
func checkResult(t *testing.T, source string, res *lineexport.Result, err error) {
	if err != nil {
		var ie *lineexport.InputError
		if !errors.As(err, &ie) || ie.File != source || ie.Line < 1 {
			t.Fatalf("error %v (%T) does not name file and line", err, err)
		}
		return
	}
	for i, m := range res.Messages {
		if m.Source != source || m.SourceOrder != i || m.Sender == "" || m.Type == "" {
			t.Fatalf("message %d incomplete: %+v", i, m)
		}
		day, err := time.Parse(chat.DateLayout, m.Date)
		if err != nil {
			t.Fatalf("message %d date %q: %v", i, m.Date, err)
		}
		want := day.Add(time.Duration(i) * time.Second)
		if m.Time != "" {
			clock, err := time.Parse("15:04:05", m.Time)
			if err != nil {
				t.Fatalf("message %d time %q: %v", i, m.Time, err)
			}
			want = day.Add(time.Duration(clock.Hour())*time.Hour + time.Duration(clock.Minute())*time.Minute + time.Duration(clock.Second())*time.Second)
		}
		if !m.OccurredAt.Equal(want) {
			t.Fatalf("message %d occurred_at %v, want %v", i, m.OccurredAt, want)
		}
		if m.ID != chat.MessageID(m) {
			t.Fatalf("message %d ID %q, want %q", i, m.ID, chat.MessageID(m))
		}
	}
	for _, w := range res.Warnings {
		if w.File != source || w.Line < 1 {
			t.Fatalf("warning %+v does not name file and line", w)
		}
	}
}

func FuzzReadText(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "*.txt"))
	f.Add([]byte(""))
	f.Add([]byte("[LINE] A\r\n\r\nSun, 01/14/2024\r\n9:05 PM\tA\t\"x\ny\"\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := lineexport.ReadText("f.txt", bytes.NewReader(data))
		checkResult(t, "f.txt", res, err)
	})
}

func FuzzReadJSON(f *testing.F) {
	addSeeds(f, conformance.Path("sources", "*.json"))
	f.Add([]byte(""))
	f.Add([]byte(`{"2024/01/14": [{"time": "9:05", "x": [1, {"y": null}]}], "2024-01-14": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := lineexport.ReadJSON("f.json", bytes.NewReader(data))
		checkResult(t, "f.json", res, err)
		if err == nil {
			compareReference(t, data, res)
		}
	})
}

// compareReference decodes data a second, slower way (each message object
// into a map) and checks that ReadJSON saw the same sender, type and text.
func compareReference(t *testing.T, data []byte, res *lineexport.Result) {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	if _, err := dec.Token(); err != nil {
		t.Fatalf("reference: %v", err)
	}
	var i int
	for dec.More() {
		if _, err := dec.Token(); err != nil { // date key
			t.Fatalf("reference: %v", err)
		}
		if _, err := dec.Token(); err != nil { // '['
			t.Fatalf("reference: %v", err)
		}
		for dec.More() {
			var obj map[string]json.RawMessage
			if err := dec.Decode(&obj); err != nil {
				t.Fatalf("reference: %v", err)
			}
			field := func(name, def string) string {
				var v *string
				if raw, ok := obj[name]; ok {
					if err := json.Unmarshal(raw, &v); err != nil {
						t.Fatalf("reference: field %s: %v", name, err)
					}
				}
				if v == nil || *v == "" {
					return def
				}
				return *v
			}
			if i >= len(res.Messages) {
				t.Fatalf("reference finds more than %d messages", len(res.Messages))
			}
			m := res.Messages[i]
			if want := [3]string{field("sender", chat.SystemSender), field("type", chat.TextType), field("text", "")}; [3]string{m.Sender, m.Type, m.Text} != want {
				t.Fatalf("message %d: got %q, reference %q", i, [3]string{m.Sender, m.Type, m.Text}, want)
			}
			i++
		}
		if _, err := dec.Token(); err != nil { // ']'
			t.Fatalf("reference: %v", err)
		}
	}
	if i != len(res.Messages) {
		t.Fatalf("reference finds %d messages, ReadJSON %d", i, len(res.Messages))
	}
}
