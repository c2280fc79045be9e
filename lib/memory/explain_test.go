package memory_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
)

// TestExplainRootIsTheScore: the explanation of every result is a tree whose
// root's value is the score Search gave it, for BM25 (asked without the
// question word, as Search asks it) and for a linear and a rank fusion; a
// plain cosine has none. For a question for a time of day BM25's window
// that carries one (「空港には6時集合ね」) has the answer-type prior added,
// and the tree says so.
func TestExplainRootIsTheScore(t *testing.T) {
	st := historyStore(t)
	for _, question := range []string{"保険証はどこ？", "空港 何時集合"} {
		t.Run(question, func(t *testing.T) { explainRootIsTheScore(t, st, question) })
	}
}

func explainRootIsTheScore(t *testing.T, st *store.Store, question string) {
	typed := memory.ParseQuestion(question).Typed()
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
			if bonus := resp.Results[0].TypeBonus; (bonus > 0) != (typed && tc.retriever == "raw_text_bm25") {
				t.Errorf("first result's answer-type bonus %v; typed question %v", bonus, typed)
			}
			for _, r := range resp.Results {
				e, ok, err := m.Explain(question, r)
				if err != nil || ok != tc.explains {
					t.Fatalf("#%d: explained %v (%v), want %v", r.Rank, ok, err, tc.explains)
				}
				if !ok {
					continue
				}
				if math.Abs(e.Value-r.Score) > 1e-9*math.Max(1, math.Abs(r.Score)) || len(e.Children) == 0 {
					t.Errorf("#%d %s: root %v with %d children, want the score %v with its parts", r.Rank, r.ChunkID, e.Value, len(e.Children), r.Score)
				}
				if prior := strings.Contains(e.String(), "answer-type prior"); prior != (r.TypeBonus > 0) {
					t.Errorf("#%d: the tree names the answer-type prior: %v; bonus %v", r.Rank, prior, r.TypeBonus)
				}
			}
		})
	}
}
