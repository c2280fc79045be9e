package store

import (
	"testing"
	"unicode/utf8"
)

// summaryLines are lines scanSummaryLine must read exactly as encoding/json
// does or leave to it.
var summaryLines = []string{
	`{"chunk_id":"c1","summary":"試験の範囲を確認した"}`,
	`{ "summary" : "夕飯はカレー" , "chunk_id" : "c2" }`,
	`{"chunk_id":"c1","summary":""}`,
	`{"chunk_id":"","summary":"x"}`,
	`{"chunk_id":"c1","summary":"a\nb"}`,
	`{"chunk_id":"c1","summary":"\u3042"}`,
	`{"chunk_id":"c1","summary":"say \"hi\""}`,
	"{\"chunk_id\":\"c1\",\"summary\":\"a\tb\"}",
	`{"chunk_id":"c1","summary":"x","extra":1}`,
	`{"chunk_id":"c1","Summary":"x"}`,
	`{"CHUNK_ID":"c1","summary":"x"}`,
	`{"chunk_id":"c1","summary":"x","summary":"y"}`,
	`{"chunk_id":"c1","chunk_id":"c2","summary":"x"}`,
	`{"chunk_id":"c1","summary":null}`,
	`{"chunk_id":null,"summary":"x"}`,
	`{"chunk_id":1,"summary":"x"}`,
	`{"chunk_id":"c1"}`,
	`{"summary":"x"}`,
	`{"chunk_id":"c1","summary":"x"} x`,
	`{"chunk_id":"c1","summary":"x",}`,
	`{"chunk_id":"c1" "summary":"x"}`,
	`["c1","x"]`,
	`{}`,
	``,
	`{"chunk_id":"c1","summary":"x"`,
}

// checkSummaryLine fails t when the scanner takes line and reads it other
// than encoding/json does; fast reports whether the scanner took it.
func checkSummaryLine(t *testing.T, line string) (fast bool) {
	t.Helper()
	if !utf8.ValidString(line) {
		return false // lines reach the scanner checked as UTF-8
	}
	id, summary, ok := scanSummaryLine([]byte(line))
	if !ok {
		return false
	}
	want, err := decodeSummaryLine("s.jsonl", 1, []byte(line))
	if err != nil {
		t.Errorf("scanner took %q, which encoding/json refuses: %v", line, err)
	} else if id != want.ChunkID || summary != want.Summary {
		t.Errorf("scanner read %q as (%q, %q), encoding/json as (%q, %q)", line, id, summary, want.ChunkID, want.Summary)
	}
	return true
}

func TestScanSummaryLineAgreesWithEncodingJSON(t *testing.T) {
	fast := 0
	for _, line := range summaryLines {
		if checkSummaryLine(t, line) {
			fast++
		}
	}
	// The first four lines are the common shape.
	if fast != 4 {
		t.Errorf("scanner took %d of the lines, want the 4 of the common shape", fast)
	}
}

func FuzzScanSummaryLine(f *testing.F) {
	for _, line := range summaryLines {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) { checkSummaryLine(t, line) })
}
