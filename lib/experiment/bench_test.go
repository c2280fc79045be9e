package experiment_test

import (
	"testing"

	"github.com/linemem/linemem/lib/experiment"
)

// BenchmarkSweepAndEvaluate is the paper's sweep (6 pairings × 21 β) and
// the seven retrievers of `linemem eval` with B = 5,000 on one fresh Setup
// over 2,000 seeded chunks and 30 questions: what `sweep` and `eval` do
// after loading, with component runs shared between them.
func BenchmarkSweepAndEvaluate(b *testing.B) {
	build, qs, qrels := largeFixture(2000)
	names := []string{"raw_text_bm25", "summary_bm25", "embedding_text_bm25", "summary_vector", "embedding_text_vector",
		"hybrid:embedding_text_bm25+embedding_text_vector@0.45", "hybrid:summary_bm25+summary_vector@0.50"}
	builder := build()
	for b.Loop() {
		s := experiment.NewSetup(qs, qrels, builder)
		if _, err := s.Sweep(nil, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := s.EvaluateAll(names); err != nil {
			b.Fatal(err)
		}
	}
}
