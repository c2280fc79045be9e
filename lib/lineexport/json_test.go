package lineexport_test

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/lineexport"
)

// toExpected puts m in the form of an expected_messages.jsonl line.
func toExpected(m chat.Message) conformance.Message {
	return conformance.Message{MessageID: m.ID, Source: m.Source, SourceOrder: m.SourceOrder, Date: m.Date, Time: m.Time,
		OccurredAt: m.OccurredAtString(), Sender: m.Sender, Type: m.Type, Text: m.Text}
}

// conformanceWarnings is the pack's count of unparseable times (one "25:99").
const conformanceWarnings = 1

func TestConformanceMessages(t *testing.T) {
	want := map[string][]conformance.Message{}
	for _, m := range conformance.ExpectedMessages(t) {
		want[m.Source] = append(want[m.Source], m)
	}

	paths, err := filepath.Glob(conformance.Path("sources", "*"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) != len(want) {
		t.Fatalf("%d source files, expected messages for %d sources", len(paths), len(want))
	}
	warnings := 0
	for _, path := range paths {
		source := filepath.Base(path)
		t.Run(source, func(t *testing.T) {
			res, err := lineexport.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			warnings += len(res.Warnings)
			exp := want[source]
			if len(res.Messages) != len(exp) {
				t.Fatalf("got %d messages, want %d", len(res.Messages), len(exp))
			}
			for i, m := range res.Messages {
				if got := toExpected(m); got != exp[i] {
					t.Errorf("message %d:\n got %+v\nwant %+v", i, got, exp[i])
				}
			}
		})
	}
	if warnings != conformanceWarnings {
		t.Errorf("got %d warnings, want %d", warnings, conformanceWarnings)
	}
}

// inputError asserts that err is an *InputError for file at line whose
// expectation mentions every fragment.
func inputError(t *testing.T, err error, file string, line int, fragments ...string) {
	t.Helper()
	var ie *lineexport.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got error %v (%T), want *lineexport.InputError", err, err)
	}
	if ie.File != file || ie.Line != line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", ie.File, ie.Line, file, line, err)
	}
	if !strings.HasPrefix(err.Error(), file+":") {
		t.Errorf("error %q does not start with the file name", err)
	}
	for _, f := range fragments {
		if !strings.Contains(ie.Expected, f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
}

func TestReadJSONBadInput(t *testing.T) {
	const file = "bad.json"
	tests := []struct {
		name      string
		input     string
		line      int
		offset    int64 // -1: not checked
		fragments []string
	}{
		{"empty file", "", 1, -1, []string{"empty file"}},
		{"only a byte-order mark and blanks", "\uFEFF\n\n", 3, -1, []string{"empty file"}},
		{"malformed JSON", "{\n\"2024-01-14\": [\n{\"time\": \"9:05\",}\n]}", 3, -1, []string{"valid JSON"}},
		{"truncated", "{\n\"2024-01-14\": [\n", 3, -1, []string{"end of the file"}},
		{"top-level array", "\n[{\"2024-01-14\": []}]", 2, 1, []string{"top-level JSON object", "an array"}},
		{"top-level string", `"2024-01-14"`, 1, 0, []string{"top-level JSON object"}},
		{"non-array date value", "{\n\"2024-01-14\": [],\n\"2024-01-15\": {\"time\": \"9:05\"}\n}", 3, -1, []string{"array of message objects", `"2024-01-15"`, "an object"}},
		{"null date value", "{\"2024-01-14\": null}", 1, -1, []string{"array of message objects", "null"}},
		{"invalid date key", "{\n\"2024-01-14\": [],\n\"yesterday\": []\n}", 3, -1, []string{"date key", `"yesterday"`}},
		{"date key not in calendar", "{\n\"2023-02-29\": []\n}", 2, 2, []string{"real calendar date"}},
		{"date key with mixed separators", "{\"2024-01/14\": []}", 1, 1, []string{"date key"}},
		{"date key with one-digit month", "{\"2024-1-14\": []}", 1, 1, []string{"date key"}},
		{"non-object message", "{\"2024-01-14\": [\n{\"text\": \"hi\"},\n\"hello\"\n]}", 3, -1, []string{"message object", "the string"}},
		{"time as number", "{\"2024-01-14\": [\n{\"time\": 930}]}", 2, -1, []string{`field "time"`, "the number 930"}},
		{"text as number", "{\"2024-01-14\": [\n\n{\"text\": 5}]}", 3, -1, []string{`field "text"`, "number"}},
		{"sender as boolean", "{\"2024-01-14\": [{\"sender\": true}]}", 1, -1, []string{`field "sender"`, "boolean true"}},
		{"type as array", "{\"2024-01-14\": [{\"type\": [\"text\"]}]}", 1, -1, []string{`field "type"`, "an array"}},
		{"invalid UTF-8", "{\"2024-01-14\": [\n{\"text\": \"ab\xff\"}]}", 2, int64(len("{\"2024-01-14\": [\n{\"text\": \"ab")), []string{"valid UTF-8", "0xFF"}},
		{"second top-level value", "{}\n{}", 2, 3, []string{"end of input after the top-level object", "got an object"}},
		{"trailing garbage", "{}\nx", 2, 3, []string{"end of input after the top-level object", "got more data"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := lineexport.ReadJSON(file, strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("got %d messages and no error", len(res.Messages))
			}
			inputError(t, err, file, tc.line, tc.fragments...)
			var ie *lineexport.InputError
			if errors.As(err, &ie) && tc.offset >= 0 && ie.Offset != tc.offset {
				t.Errorf("offset %d, want %d", ie.Offset, tc.offset)
			}
		})
	}
}

func TestReadJSON(t *testing.T) {
	const file = "chat.json"
	// day is 2024-01-14 00:00 as OccurredAt; unknown times add SourceOrder seconds.
	tests := []struct {
		name     string
		input    string
		want     []conformance.Message // MessageID filled in from the other fields
		warnings []int                 // lines of expected warnings
	}{
		{"empty object", "{}", nil, nil},
		{"empty date array", `{"2024-01-14": []}`, nil, nil},
		{
			"defaults for missing and null fields",
			`{"2024-01-14": [{}, {"time": null, "sender": null, "type": null, "text": null}, {"sender": "", "type": ""}]}`,
			[]conformance.Message{
				{Source: file, SourceOrder: 0, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:00", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 1, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:01", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 2, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:02", Sender: "SYSTEM", Type: "text"},
			},
			nil,
		},
		{
			"time forms",
			`{"2024-01-14": [{"time": "9:05"}, {"time": "09:05"}, {"time": "23:59:59"}, {"time": "0:00"}]}`,
			[]conformance.Message{
				{Source: file, SourceOrder: 0, Date: "2024-01-14", Time: "09:05:00", OccurredAt: "2024-01-14T09:05:00", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 1, Date: "2024-01-14", Time: "09:05:00", OccurredAt: "2024-01-14T09:05:00", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 2, Date: "2024-01-14", Time: "23:59:59", OccurredAt: "2024-01-14T23:59:59", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 3, Date: "2024-01-14", Time: "00:00:00", OccurredAt: "2024-01-14T00:00:00", Sender: "SYSTEM", Type: "text"},
			},
			nil,
		},
		{
			"unparseable times warn and stay unknown",
			"{\"2024-01-14\": [\n{\"time\": \"25:99\"},\n{\"time\": \"24:00\"},\n{\"time\": \"9:5\"},\n{\"time\": \"9:05:00\"},\n{\"time\": \"\"}]}",
			[]conformance.Message{
				{Source: file, SourceOrder: 0, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:00", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 1, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:01", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 2, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:02", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 3, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:03", Sender: "SYSTEM", Type: "text"},
				{Source: file, SourceOrder: 4, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:04", Sender: "SYSTEM", Type: "text"},
			},
			[]int{2, 3, 4, 5},
		},
		{
			"document order, slash keys and repeated keys",
			"\uFEFF{\"2024/01/15\": [{\"text\": \"a\"}], \"2024-01-14\": [{\"text\": \"b\", \"extra\": {\"x\": [1, 1e999]}}], \"2024-01-15\": [{\"text\": \"c\"}]}",
			[]conformance.Message{
				{Source: file, SourceOrder: 0, Date: "2024-01-15", OccurredAt: "2024-01-15T00:00:00", Sender: "SYSTEM", Type: "text", Text: "a"},
				{Source: file, SourceOrder: 1, Date: "2024-01-14", OccurredAt: "2024-01-14T00:00:01", Sender: "SYSTEM", Type: "text", Text: "b"},
				{Source: file, SourceOrder: 2, Date: "2024-01-15", OccurredAt: "2024-01-15T00:00:02", Sender: "SYSTEM", Type: "text", Text: "c"},
			},
			nil,
		},
		{
			"unknown time rolls past midnight",
			`{"2024-02-28": [` + strings.Repeat(`{"text": "x"},`, 86400) + `{"text": "last"}]}`,
			nil, // checked below: only the last message
			nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := lineexport.ReadJSON(file, strings.NewReader(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "unknown time rolls past midnight" {
				last := res.Messages[len(res.Messages)-1]
				if got, want := last.OccurredAtString(), "2024-02-29T00:00:00"; got != want { // 86400 s after 2024-02-28 00:00
					t.Errorf("occurred_at %s, want %s", got, want)
				}
				return
			}
			if len(res.Messages) != len(tc.want) {
				t.Fatalf("got %d messages, want %d", len(res.Messages), len(tc.want))
			}
			for i, m := range res.Messages {
				want := tc.want[i]
				want.MessageID = chat.HashID(want.Source, itoa(want.SourceOrder), want.Date, want.Time, want.Sender, want.Type, want.Text)
				if got := toExpected(m); got != want {
					t.Errorf("message %d:\n got %+v\nwant %+v", i, got, want)
				}
			}
			var lines []int
			for _, w := range res.Warnings {
				if w.File != file {
					t.Errorf("warning names file %q, want %q", w.File, file)
				}
				lines = append(lines, w.Line)
			}
			if !equalInts(lines, tc.warnings) {
				t.Errorf("warning lines %v, want %v", lines, tc.warnings)
			}
		})
	}
}

func TestReadFileUnsupported(t *testing.T) {
	_, err := lineexport.ReadFile(filepath.Join(t.TempDir(), "notes.csv"))
	if !errors.Is(err, lineexport.ErrUnsupported) {
		t.Errorf("got %v, want ErrUnsupported", err)
	}
	if lineexport.Supported("notes.csv") || !lineexport.Supported("a.JSON") || !lineexport.Supported("b.txt") {
		t.Error("Supported disagrees with ReadFile's extensions")
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := lineexport.ReadFile(filepath.Join(t.TempDir(), "missing.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want os.ErrNotExist", err)
	}
}
