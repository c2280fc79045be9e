package memory_test

import (
	"context"
	"math"
	"testing"

	"github.com/linemem/linemem/lib/memory"
)

// TestExplainRootIsTheScore: the explanation of every result is a tree whose
// root's value is the score Search gave it, for BM25 (asked without the
// question word, as Search asks it) and for a linear and a rank fusion; a
// plain cosine has none.
func TestExplainRootIsTheScore(t *testing.T) {
	st := historyStore(t)
	const question = "保険証はどこ？"
	for _, tc := range []struct {
		retriever string
		explains  bool
	}{
		{"raw_text_bm25", true},
		{"hybrid:raw_text_bm25+raw_text_vector@0.40", true},
		{"rrf:raw_text_bm25+raw_text_vector", true},
		{"raw_text_vector", false},
	} {
		t.Run(tc.retriever, func(t *testing.T) {
			m, err := memory.Open(st, memory.Options{Retriever: tc.retriever})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := m.Search(context.Background(), memory.Query{Text: question, K: 5})
			if err != nil || len(resp.Results) == 0 {
				t.Fatalf("search: %d results, %v", len(resp.Results), err)
			}
			for _, r := range resp.Results {
				e, ok, err := m.Explain(question, r.ChunkID)
				if err != nil || ok != tc.explains {
					t.Fatalf("#%d: explained %v (%v), want %v", r.Rank, ok, err, tc.explains)
				}
				if !ok {
					continue
				}
				if math.Abs(e.Value-r.Score) > 1e-9*math.Max(1, math.Abs(r.Score)) || len(e.Children) == 0 {
					t.Errorf("#%d %s: root %v with %d children, want the score %v with its parts", r.Rank, r.ChunkID, e.Value, len(e.Children), r.Score)
				}
			}
		})
	}
}
