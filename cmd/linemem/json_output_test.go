package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/linemem/linemem/internal/conformance"
)

// TestJSONOutputIsValidUTF8 runs every command that prints JSON (--json or
// --jsonl) on the conformance pack and decodes its output strictly: valid
// UTF-8 throughout, each value (or line) one complete JSON value.
func TestJSONOutputIsValidUTF8(t *testing.T) {
	db := conformanceDB(t)
	questions, qrels := conformance.Path("questions.jsonl"), conformance.Path("qrels.txt")
	wb := filepath.Join(t.TempDir(), "wb.db")
	run(t, "ingest", "--db", wb, workbenchFile("sources"))
	run(t, "gold", "pool", "--db", wb, "--questions", workbenchFile("questions.jsonl"), "--evidence", workbenchFile("evidence.jsonl"), "--depth", "0")
	run(t, "gold", "judgments", "import", "--db", wb, workbenchFile("judgments_a.jsonl"))
	a, err := os.ReadFile(workbenchFile("judgments_a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bPath := filepath.Join(t.TempDir(), "b.jsonl")
	if err := os.WriteFile(bPath, bytes.ReplaceAll(a, []byte(`"annotator":"A"`), []byte(`"annotator":"B"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, "gold", "judgments", "import", "--db", wb, bPath)
	for _, c := range []struct {
		args  []string
		lines bool // JSON lines
	}{
		{[]string{"stats", "--db", db, "--json"}, false},
		{[]string{"chunks", "--db", db, "--jsonl"}, true},
		{[]string{"search", "--db", db, "--json", "数学のテスト"}, false},
		{[]string{"ask", "--db", db, "--json", "--retriever", "raw_text_bm25", "数学のテストの範囲は？"}, false},
		{[]string{"eval", "--db", db, "--questions", questions, "--qrels", qrels, "--retriever", "raw_text_bm25", "--bootstrap", "100", "--json"}, false},
		{[]string{"sweep", "--db", db, "--questions", questions, "--qrels", qrels, "--json"}, false},
		{[]string{"gold", "agreement", "--db", wb, "--annotators", "A,B", "--json"}, false},
		{[]string{"synth", "--seed", "3", "--out", filepath.Join(t.TempDir(), "synth"), "--json"}, false},
	} {
		t.Run(strings.Join(c.args[:1], " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := runMain(&environment{stdout: &out, stderr: &errOut}, c.args); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if !utf8.Valid(out.Bytes()) {
				t.Fatalf("output is not valid UTF-8")
			}
			values := []string{out.String()}
			if c.lines {
				values = strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			}
			for i, v := range values {
				dec := json.NewDecoder(strings.NewReader(v))
				var x any
				if err := dec.Decode(&x); err != nil {
					t.Fatalf("value %d: %v", i+1, err)
				}
				if _, err := dec.Token(); err != io.EOF {
					t.Fatalf("value %d: more than one JSON value (%v)", i+1, err)
				}
			}
		})
	}
}

// TestWriteJSONStringInvalidUTF8: bytes that are not UTF-8 (a name stored by
// an older version) are written as U+FFFD, as encoding/json writes them, so
// the output stays JSON.
func TestWriteJSONStringInvalidUTF8(t *testing.T) {
	var b bytes.Buffer
	writeJSONString(&b, "a\xff\xfeb\"é")
	if want := "\"a\uFFFD\uFFFDb\\\"é\""; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestEvalDuplicateQrels: eval refuses a qrels row that judges a pair again
// differently, naming both lines; --allow-duplicate-qrels keeps the last row
// and warns.
func TestEvalDuplicateQrels(t *testing.T) {
	db := conformanceDB(t)
	data, err := os.ReadFile(conformance.Path("qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Fields(strings.SplitN(string(data), "\n", 2)[0])
	lines := strings.Count(string(data), "\n")
	qrels := filepath.Join(t.TempDir(), "qrels.txt")
	if err := os.WriteFile(qrels, fmt.Appendf(data, "%s 0 %s 0\n", first[0], first[2]), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"eval", "--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", qrels, "--retriever", "raw_text_bm25", "--bootstrap", "10"}
	want := fmt.Sprintf("%s:%d: expected one relevance per (qid, chunk_id); %s %s is judged %s on line 1 and 0 here", qrels, lines+1, first[0], first[2], first[3])
	code, _, stderr := ingestSideRun(t, args...)
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	code, _, stderr = ingestSideRun(t, append(args, "--allow-duplicate-qrels")...)
	if code != 0 || !strings.Contains(stderr, "warning: "+want+"; kept the last row") {
		t.Errorf("--allow-duplicate-qrels: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := ingestSideRun(t, append(args, "--allow-duplicate-qrels", "--json")...)
	var doc evalJSON
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil {
		t.Fatalf("--allow-duplicate-qrels --json: exit %d, %v", code, err)
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0] != want+"; kept the last row" {
		t.Errorf("--json warnings %q, want the one qrels warning %q", doc.Warnings, want+"; kept the last row")
	}
}
