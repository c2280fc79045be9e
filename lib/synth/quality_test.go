package synth_test

import (
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/synth"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
)

// recallByType runs BM25 with the paper-regex tokenizer over one text per
// chunk and returns macro Recall@5 overall ("") and per question type.
func recallByType(t *testing.T, ds *synth.Dataset, text func(i int) string) map[string]float64 {
	t.Helper()
	docs := make([]bm25.Doc, len(ds.Chunks))
	for i, c := range ds.Chunks {
		docs[i] = bm25.Doc{ID: c.ID, StartAt: c.StartAt, Text: text(i)}
	}
	ix := bm25.New(docs, paperregex.New())
	run := ranking.Run{}
	for _, q := range ds.Questions {
		run[q.QID] = ix.Search(q.Question, 200)
	}
	res, err := metrics.Evaluate(ds.Questions, ds.Qrels, run, []string{"recall@5"})
	if err != nil {
		t.Fatal(err)
	}
	scores := res.Scores("recall@5")
	out := map[string]float64{"": metrics.Mean(scores)}
	for _, typ := range questions.Types {
		var xs []float64
		for _, i := range res.TypeIndices(typ) {
			xs = append(xs, scores[i])
		}
		out[typ] = metrics.Mean(xs)
	}
	return out
}

// TestRetrievalDifficulty pins what makes the small dataset useful for the
// paper's comparisons: plain raw_text BM25 is neither trivial nor hopeless
// (the paper measured 0.427), aggregate questions are clearly the hardest,
// and summaries help on paraphrased contextual questions.
func TestRetrievalDifficulty(t *testing.T) {
	ds := smallDataset(t)
	summaries := make(map[string]string, len(ds.Summaries))
	for _, s := range ds.Summaries {
		summaries[s.ChunkID] = s.Summary
	}
	raw := recallByType(t, ds, func(i int) string { return ds.Chunks[i].RawText })
	summary := recallByType(t, ds, func(i int) string { return summaries[ds.Chunks[i].ID] })
	embedding := recallByType(t, ds, func(i int) string {
		return represent.EmbeddingText(summaries[ds.Chunks[i].ID], ds.Chunks[i].RawText)
	})
	t.Logf("Recall@5 raw_text_bm25 %.3f (named_entity %.3f, contextual %.3f, aggregate %.3f)",
		raw[""], raw[questions.NamedEntity], raw[questions.Contextual], raw[questions.Aggregate])
	t.Logf("Recall@5 summary_bm25 %.3f (contextual %.3f), embedding_text_bm25 %.3f",
		summary[""], summary[questions.Contextual], embedding[""])

	if r := raw[""]; r < 0.30 || r > 0.55 {
		t.Errorf("raw_text_bm25 Recall@5 = %.3f, want within [0.30, 0.55]", r)
	}
	const margin = 0.10 // "measurably harder": ten points below each other type
	for _, typ := range []string{questions.NamedEntity, questions.Contextual} {
		if raw[questions.Aggregate] > raw[typ]-margin {
			t.Errorf("aggregate Recall@5 %.3f is not %.2f below %s %.3f", raw[questions.Aggregate], margin, typ, raw[typ])
		}
	}
	if summary[questions.Contextual] <= raw[questions.Contextual] {
		t.Errorf("summary_bm25 on contextual questions %.3f does not beat raw_text_bm25 %.3f", summary[questions.Contextual], raw[questions.Contextual])
	}
	if embedding[""] <= raw[""] {
		t.Errorf("embedding_text_bm25 %.3f does not beat raw_text_bm25 %.3f", embedding[""], raw[""])
	}
}
