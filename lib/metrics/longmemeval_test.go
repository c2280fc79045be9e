package metrics_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
)

// w is LongMemEval's discount: positions 1 and 2 weigh 1, position i ≥ 2
// weighs 1 / log2 i (dcg in src/retrieval/eval_utils.py).
func w(i int) float64 { return 1 / math.Max(1, math.Log2(float64(i))) }

// TestLongMemEvalEvalUtils holds recall_any, recall_all and ndcg_any to
// LongMemEval's src/retrieval/eval_utils.py (github.com/xiaowu0162/LongMemEval
// at 9e0b455) on three worked inputs each at the session level
// (evaluate_retrieval), with repeated units, and through turn-to-session
// scoring (evaluate_retrieval_turn2session). Each case gives the reference's
// own input (corpus IDs, gold, ranking as corpus positions) and the triple
// the reference returns for it, written as the formula it evaluates.
func TestLongMemEvalEvalUtils(t *testing.T) {
	const tol = 1e-12 // the same sums in another order
	for _, c := range []struct {
		name    string
		corpus  []string // corpus_ids
		gold    []string // correct_docs
		ranking []int    // rankings: corpus positions, best first
		k       int
		turns   bool // evaluate_retrieval_turn2session; corpus IDs are SESSION_TURN
		want    [3]float64
	}{
		// rel = 0, 1, 0, 1, 0
		{"sessions, k 5", []string{"a", "b", "c", "d", "e"}, []string{"a", "b"}, []int{2, 0, 3, 1, 4}, 5, false,
			[3]float64{1, 1, (w(2) + w(4)) / (w(1) + w(2))}},
		{"sessions, k 1", []string{"a", "b", "c", "d", "e"}, []string{"a", "b"}, []int{2, 0, 3, 1, 4}, 1, false,
			[3]float64{0, 0, 0}},
		{"sessions, k 2", []string{"a", "b", "c", "d", "e"}, []string{"a", "b"}, []int{2, 0, 3, 1, 4}, 2, false,
			[3]float64{1, 0, w(2) / (w(1) + w(2))}},
		// Repeated units: the corpus lists a twice, so the ideal holds two gains.
		// rel = 1, 1
		{"repeated, both first", []string{"a", "a", "b"}, []string{"a"}, []int{0, 1, 2}, 2, false,
			[3]float64{1, 1, (w(1) + w(2)) / (w(1) + w(2))}},
		// rel = 0, 1 (LongMemEval's 0.5 where one entry per unit gives 1)
		{"repeated, one after a miss", []string{"a", "a", "b"}, []string{"a"}, []int{2, 0, 1}, 2, false,
			[3]float64{1, 1, w(2) / (w(1) + w(2))}},
		// rel = 1, 0, 1 over gold entries a, a, a, c
		{"repeated, three entries of a", []string{"a", "a", "a", "b", "c"}, []string{"a", "c"}, []int{0, 3, 1, 4, 2}, 3, false,
			[3]float64{1, 0, (w(1) + w(3)) / (w(1) + w(2) + w(3))}},
		// Turn to session: top 2 turns name A and B (k stays 2); rel = 1, 0
		// over the ideal A, A: nDCG 0.5 where A's first-rank session gives 1.
		{"turn to session, k 2", []string{"A_1", "A_2", "B_1"}, []string{"A_1", "A_2"}, []int{0, 2, 1}, 2, true,
			[3]float64{1, 1, w(1) / (w(1) + w(2))}},
		// The top 2 turns name only B, so k grows to 3; rel = 0, 0, 1.
		{"turn to session, k grows", []string{"A_1", "A_2", "B_1", "B_2", "C_1"}, []string{"A_1"}, []int{2, 3, 0, 4, 1}, 2, true,
			[3]float64{1, 1, w(3) / (w(1) + w(2))}},
		// noA is A's non-target turn under another label (LongMemEval's
		// "noans"); k 3 covers noA, B, A; rel = 0, 0, 1 over the ideal A, C.
		{"turn to session, a non-target turn", []string{"A_1", "noA_2", "B_1", "C_1"}, []string{"A_1", "C_1"}, []int{1, 2, 0, 3}, 3, true,
			[3]float64{1, 0, w(3) / (w(1) + w(2))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ranked := make([]ranking.Hit, len(c.ranking))
			for i, p := range c.ranking {
				ranked[i] = ranking.Hit{ChunkID: c.corpus[p], Score: float64(len(c.ranking) - i)}
			}
			var got [3]float64
			if c.turns {
				sessionOf := map[string]string{}
				var gold []string
				for _, id := range c.corpus {
					sessionOf[id] = id[:len(id)-2]
				}
				for _, id := range c.gold {
					gold = append(gold, sessionOf[id])
				}
				got[0], got[1], got[2] = metrics.TurnToSession(ranked, sessionOf, gold, c.k)
			} else {
				judged := metrics.UnitJudgments(c.gold)
				got = [3]float64{metrics.RecallAny(ranked, judged, c.k), metrics.RecallAll(ranked, judged, c.k), metrics.NDCGAny(ranked, judged, c.k)}
			}
			for i, name := range []string{"recall_any", "recall_all", "ndcg_any"} {
				if math.Abs(got[i]-c.want[i]) > tol {
					t.Errorf("%s@%d = %v, want %v (eval_utils.py)", name, c.k, got[i], c.want[i])
				}
			}
		})
	}
}

// TestNDCGAnyRepeatedUnitAtMostOne: a ranking that repeats its one gold
// unit scored 2.0 when the ideal counted each gold unit once; every ranking
// of a small alphabet now scores in [0, 1].
func TestNDCGAnyRepeatedUnitAtMostOne(t *testing.T) {
	judged := map[string]int{"a": 2}
	if got := metrics.NDCGAny(ids("a", "a"), judged, 2); got != 1 {
		t.Errorf("ndcg_any@2 of a, a = %v, want 1", got)
	}
	units := []string{"a", "b", "c"}
	judged = map[string]int{"a": 2, "c": 2}
	for n := 0; n < 3*3*3*3; n++ {
		var run []string
		for m := n; len(run) < 4; m /= 3 {
			run = append(run, units[m%3])
		}
		for k := 1; k <= 5; k++ {
			if got := metrics.NDCGAny(ids(run...), judged, k); got < 0 || got > 1 {
				t.Errorf("ndcg_any@%d of %v = %v, want within [0, 1]", k, run, got)
			}
		}
	}
}

func TestSessionCutoff(t *testing.T) {
	for _, c := range []struct {
		sessions []string
		k, want  int
	}{
		{[]string{"A", "B", "C"}, 2, 2},
		{[]string{"A", "A", "B", "C"}, 2, 3},
		{[]string{"A", "A", "A"}, 2, 4}, // never 2 sessions: len + 1, where the reference's loop stops
		{[]string{"A"}, 3, 3},           // shorter than k: k
		{nil, 1, 1},
		{[]string{"A", "B"}, 0, 0},
	} {
		if got := metrics.SessionCutoff(c.sessions, c.k); got != c.want {
			t.Errorf("SessionCutoff(%v, %d) = %d, want %d", c.sessions, c.k, got, c.want)
		}
	}
}

func ExampleTurnToSession() {
	// Turns A_1, B_1, A_2 ranked in that order; both of A's turns are targets.
	run := []ranking.Hit{{ChunkID: "A_1"}, {ChunkID: "B_1"}, {ChunkID: "A_2"}}
	sessionOf := map[string]string{"A_1": "A", "A_2": "A", "B_1": "B"}
	fmt.Println(metrics.TurnToSession(run, sessionOf, []string{"A"}, 2))
	// Output: 1 1 0.5
}
