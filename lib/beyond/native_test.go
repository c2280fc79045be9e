package beyond_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/ranking"
)

// TestNativeScores ranks sessions by their best chunk: chunks c1 and c3 lie
// in session s1, c2 in s2, and the run ranks c2, c1, c3 for both questions,
// so the sessions rank s2, s1. Question a's gold is s1 (rank 2), b's is s2
// and s3 (s3 never ranked).
func TestNativeScores(t *testing.T) {
	hits := []ranking.Hit{{ChunkID: "c2", Score: 3}, {ChunkID: "c1", Score: 2}, {ChunkID: "c3", Score: 1}}
	ev := &experiment.Evaluation{Name: "bm25", Run: ranking.Run{"a": hits, "b": hits}}
	unitsOf := map[string][]string{"c1": {"s1"}, "c2": {"s2"}, "c3": {"s1"}}
	gold := map[string][]string{"a": {"s1"}, "b": {"s2", "s3"}}
	cases := []struct {
		name                          string
		qids                          []string
		recallAny, recallAll, ndcgAny float64
	}{
		// LongMemEval's discount weighs ranks 1 and 2 alike (w(1) = w(2) = 1).
		// a: s1 at rank 2, DCG 1/w(2) against the ideal 1/w(1). b: s2 at rank
		// 1, s3 missing: any 1, all 0, DCG 1/w(1) against the ideal
		// 1/w(1) + 1/w(2).
		{"one question", []string{"a"}, 1, 1, 1.0 / 1},
		{"two questions", []string{"a", "b"}, (1 + 1) / 2.0, (1 + 0) / 2.0, (1.0/1 + 1.0/(1+1)) / 2},
		{"no question", nil, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := beyond.NativeScores([]*experiment.Evaluation{ev}, c.qids, unitsOf, gold)
			if len(got) != 1 || got[0].Name != "bm25" {
				t.Fatalf("scores %+v, want one named bm25", got)
			}
			for i, k := range beyond.NativeCutoffs {
				sc := got[0]
				for _, m := range []struct {
					metric    string
					got, want float64
				}{{"recall_any", sc.RecallAny[i], c.recallAny}, {"recall_all", sc.RecallAll[i], c.recallAll}, {"ndcg_any", sc.NDCGAny[i], c.ndcgAny}} {
					if math.Abs(m.got-m.want) > 1e-12 {
						t.Errorf("%s@%d = %v, want %v", m.metric, k, m.got, m.want)
					}
				}
			}
		})
	}
}
