package experiment_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/trec"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLoadQuestionSetErrors: the same bad input gives the same message on
// every run — the unknown qid that comes first in the qrels file, at its
// first line, however the qrels map iterates — and an empty questions file
// is named as such rather than blaming the qrels.
func TestLoadQuestionSetErrors(t *testing.T) {
	dir := t.TempDir()
	qs := writeFile(t, dir, "questions.jsonl", `{"qid":"q1","question":"a","type":"single_hop"}`+"\n")
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "q1 0 c%d 1\n", i)
	}
	for i := range 30 { // unknown qids x0…x29, first met on lines 41…70
		fmt.Fprintf(&b, "x%d 0 c1 2\n", i)
	}
	qrels := writeFile(t, dir, "qrels.txt", b.String())
	want := fmt.Sprintf(`%s:41: expected a qid of %s, got "x0" (30 qids of the qrels are not in the questions)`, qrels, qs)
	for range 20 {
		_, _, err := experiment.LoadQuestionSet(qs, qrels)
		if err == nil || err.Error() != want {
			t.Fatalf("error %v\nwant  %s", err, want)
		}
	}
	one := writeFile(t, dir, "one.txt", "q1 0 c1 1\nx9 0 c1 2\n")
	if _, _, err := experiment.LoadQuestionSet(qs, one); err == nil || err.Error() != fmt.Sprintf(`%s:2: expected a qid of %s, got "x9"`, one, qs) {
		t.Errorf("one unknown qid: %v", err)
	}
	empty := writeFile(t, dir, "empty.jsonl", "")
	_, _, err := experiment.LoadQuestionSet(empty, qrels)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != empty || ie.Line != 1 || !strings.Contains(ie.Expected, "at least one question") {
		t.Errorf("empty questions: %v, want an error naming %s", err, empty)
	}
}

// TestLoadQuestionSetDuplicateQrels: a conflicting qrels row fails with both
// line numbers, or under AllowConflicts keeps the last row with a warning.
func TestLoadQuestionSetDuplicateQrels(t *testing.T) {
	dir := t.TempDir()
	qs := writeFile(t, dir, "questions.jsonl", `{"qid":"q3","question":"a","type":"single_hop"}`+"\n")
	qrels := writeFile(t, dir, "qrels.txt", "q3 0 gold 2\nq3 0 other 1\nq3 0 gold 0\n")
	if _, _, err := experiment.LoadQuestionSet(qs, qrels); err == nil || !strings.Contains(err.Error(), "qrels.txt:3: expected one relevance per (qid, chunk_id); q3 gold is judged 2 on line 1 and 0 here") {
		t.Errorf("conflict: %v", err)
	}
	_, q, warnings, err := experiment.LoadQuestionSetWith(qs, qrels, trec.QrelsOptions{AllowConflicts: true})
	if err != nil || q["q3"]["gold"] != 0 || len(warnings) != 1 || warnings[0].Line != 3 {
		t.Errorf("allowed: %v, %v, warnings %v", q, err, warnings)
	}
}
