package analyzers_test

import (
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/memory"
)

// TestMeasureEverydayMixed runs the everyday measurement on the mixed
// history: every question (each has evidence naming an answer message) is
// asked once as answerable, every no-answer question once, and each
// question whose answers lie in one source once more without that source;
// judged questions score Recall@5 and Success@1 in [0, 1].
func TestMeasureEverydayMixed(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "mixed")
	run, err := analyzers.MeasureEveryday("mixed", dir, analyzers.EverydayOptions{Work: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := analyzers.LoadFolder("mixed", dir)
	if err != nil {
		t.Fatal(err)
	}
	na, err := analyzers.LoadNoAnswer(dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.Corpus != "mixed" || run.Retriever == "" {
		t.Errorf("run of %q with retriever %q", run.Corpus, run.Retriever)
	}
	count := map[string]int{}
	for _, o := range run.Outcomes {
		count[o.Kind]++
		if o.Confidence < 0 || o.Confidence > 1 {
			t.Errorf("%s %s: confidence %v outside [0, 1]", o.Kind, o.QID, o.Confidence)
		}
		if o.Kind != analyzers.Answerable && (o.Shown || o.Quoted || o.Judged) {
			t.Errorf("%s %s: shown, quoted or judged, which only answerable questions are", o.Kind, o.QID)
		}
		if o.Recall5 < 0 || o.Recall5 > 1 || o.Success1 < 0 || o.Success1 > 1 {
			t.Errorf("%s: Recall@5 %v, Success@1 %v outside [0, 1]", o.QID, o.Recall5, o.Success1)
		}
	}
	if count[analyzers.Answerable] != len(c.Questions) || count[analyzers.NoAnswer] != len(na) {
		t.Errorf("%d answerable and %d no-answer outcomes, want %d and %d", count[analyzers.Answerable], count[analyzers.NoAnswer], len(c.Questions), len(na))
	}
	judged, withGold := 0, 0
	for _, q := range c.Questions {
		for _, rel := range c.Qrels[q.QID] {
			if rel == 2 {
				withGold++
				break
			}
		}
	}
	answered, shown, quoted := 0, 0, 0
	for _, o := range run.Outcomes {
		if o.Judged {
			judged++
		}
		if o.Kind == analyzers.Answerable && o.Confidence > 0 {
			answered++
		}
		if o.Shown {
			shown++
		}
		if o.Quoted {
			quoted++
		}
	}
	if judged != withGold {
		t.Errorf("%d questions judged, want the %d with a relevance-2 window", judged, withGold)
	}
	if answered == 0 || shown == 0 || quoted == 0 {
		t.Errorf("of the answerable questions %d have a confidence above 0, %d their answer line shown first, %d it quoted; want some of each", answered, shown, quoted)
	}
	if count[analyzers.OtherChats] == 0 {
		t.Error("no other-chat outcome")
	}
	r := run.EverydayRates(memory.DefaultMinConfidence)
	if len(r[0]) != len(c.Questions) || len(r[2]) != count[analyzers.NoAnswer]+count[analyzers.OtherChats] {
		t.Errorf("rates over %d answerable and %d unanswerable questions", len(r[0]), len(r[2]))
	}
}
