package reproduce_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/reproduce"
)

func TestAnswersTableHoldsNoQuestionOrAnswerText(t *testing.T) {
	tmp := t.TempDir()
	s, err := reproduce.Prepare(paperOptions(conformance.Dir(), filepath.Join(tmp, "conf.db"), 100))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := beyond.Answers(s.Outcome, s.Store, s.EmbedModel)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Retriever != "embedding_text_bm25" || !strings.HasPrefix(runs[1].Retriever, "hybrid:") {
		t.Fatalf("runs = %+v", runs)
	}
	tab := reproduce.AnswersTable(runs, 100, 12345)
	if len(tab.Rows) != len(answereval.Metrics)*len(runs) || len(tab.Columns) != 2+len(runs[0].Groups) {
		t.Errorf("%d rows and %d columns, want %d metrics × %d runs and 2 + %d groups", len(tab.Rows), len(tab.Columns), len(answereval.Metrics), len(runs), len(runs[0].Groups))
	}
	if err := tab.Validate(); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := tab.WriteMarkdown(&sb); err != nil {
		t.Fatal(err)
	}
	text := sb.String()
	for _, q := range s.Questions {
		if strings.Contains(text, q.Question) || q.Answer != "" && strings.Contains(text, q.Answer) {
			t.Errorf("the answers table contains the question or reference text of %s", q.QID)
		}
	}
	scores := runs[0].Scores
	for _, m := range answereval.Metrics {
		if len(scores.Values[m]) != len(scores.QIDs) {
			t.Errorf("%s has %d values for %d questions", m, len(scores.Values[m]), len(scores.QIDs))
		}
	}
}
