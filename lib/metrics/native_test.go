package metrics_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
)

func ids(names ...string) []ranking.Hit {
	out := make([]ranking.Hit, len(names))
	for i, n := range names {
		out[i] = ranking.Hit{ChunkID: n, Score: float64(len(names) - i)}
	}
	return out
}

// A worked example: gold {a, b, c}; the run ranks x, a, y, b, z.
func TestLongMemEvalMetricsWorkedExample(t *testing.T) {
	judged := map[string]int{"a": 2, "b": 2, "c": 2}
	run := ids("x", "a", "y", "b", "z")
	inv := func(i int) float64 { return 1 / math.Max(1, math.Log2(float64(i))) } // positions 1 and 2 weigh 1
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"recall_any@1", metrics.RecallAny(run, judged, 1), 0},
		{"recall_any@2", metrics.RecallAny(run, judged, 2), 1},
		{"recall_all@5", metrics.RecallAll(run, judged, 5), 0}, // c is missing
		{"recall_all@5, gold {a, b}", metrics.RecallAll(run, map[string]int{"a": 2, "b": 2, "c": 1}, 5), 1},
		{"ndcg_any@5", metrics.NDCGAny(run, judged, 5), (inv(2) + inv(4)) / (inv(1) + inv(2) + inv(3))},
		{"ndcg_any@2", metrics.NDCGAny(run, judged, 2), inv(2) / (inv(1) + inv(2))},
		{"ndcg_any, no gold", metrics.NDCGAny(run, nil, 5), 0},
		{"recall_all, no gold", metrics.RecallAll(run, nil, 5), 0},
		{"k = 0", metrics.RecallAll(run, judged, 0), 0},
		{"recall_all, k = -1", metrics.RecallAll(run, judged, -1), 0},
		{"ndcg_any, k = 0", metrics.NDCGAny(run, judged, 0), 0}, // IDCG@0 = 0: no 0/0
		{"ndcg_any, k = -1", metrics.NDCGAny(run, judged, -1), 0},
	} {
		if !(math.Abs(c.got-c.want) <= 1e-12) { // NaN fails too
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, name := range []string{"recall_any@5", "recall_all@10", "ndcg_any@5"} {
		if _, err := metrics.Parse(name); err != nil {
			t.Errorf("Parse(%s): %v", name, err)
		}
	}
}

// Chunks c1 = turns {t1, t2} of session s1, c2 = {t3} of s2, c3 = {t2, t4}
// of s1; the run ranks c2, c3, c1.
func TestUnitRankingAndEvidenceRecall(t *testing.T) {
	turns := map[string][]string{"c1": {"t1", "t2"}, "c2": {"t3"}, "c3": {"t2", "t4"}}
	sessions := map[string][]string{"c1": {"s1"}, "c2": {"s2"}, "c3": {"s1"}}
	run := ids("c2", "c3", "c1")
	got := metrics.UnitRanking(run, turns)
	var order []string
	for _, h := range got {
		order = append(order, h.ChunkID)
	}
	if fmt.Sprint(order) != "[t3 t2 t4 t1]" {
		t.Errorf("turn ranking = %v, want [t3 t2 t4 t1]", order)
	}
	ss := metrics.UnitRanking(run, sessions)
	if len(ss) != 2 || ss[0].ChunkID != "s2" || ss[1].ChunkID != "s1" || ss[1].Score != run[1].Score {
		t.Errorf("session ranking = %v, want s2, s1 (at c3's score)", ss)
	}
	// Evidence {t1, t4}: the top chunk holds neither, the top two hold t4,
	// all three hold both.
	ev := []string{"t1", "t4"}
	for k, want := range map[int]float64{-1: 0, 0: 0, 1: 0, 2: 1.0 / 2, 3: 1} {
		if got := metrics.EvidenceRecall(run, turns, ev, k); got != want {
			t.Errorf("EvidenceRecall@%d = %v, want %v", k, got, want)
		}
	}
	if got := metrics.RecallAll(ss, metrics.UnitJudgments([]string{"s1"}), 1); got != 0 {
		t.Errorf("session recall_all@1 = %v, want 0 (s2 first)", got)
	}
}

func ExampleEvidenceRecall() {
	turns := map[string][]string{"c1": {"D1:1", "D1:2"}, "c2": {"D2:1"}}
	run := []ranking.Hit{{ChunkID: "c2"}, {ChunkID: "c1"}}
	fmt.Println(metrics.EvidenceRecall(run, turns, []string{"D1:2", "D2:1"}, 1))
	// Output: 0.5
}
