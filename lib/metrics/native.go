package metrics

import (
	"math"

	"github.com/linemem/linemem/lib/ranking"
)

// The benchmark-native metrics of LongMemEval (Wu et al., "LongMemEval:
// Benchmarking Chat Assistants on Long-Term Interactive Memory", ICLR 2025;
// src/retrieval/eval_utils.py of github.com/xiaowu0162/LongMemEval at
// 9e0b455), over primary gold G2 (rel 2) and the first min(k, n) hits:
//
//	recall_any@k = 1 if some g ∈ G2 is among d1…dk, else 0
//	recall_all@k = 1 if every g ∈ G2 is among d1…dk, else 0
//	ndcg_any@k   = DCG@k / IDCG@k with binary gain and LongMemEval's discount
//	               DCG@k = Σ_{i ≤ min(k, n)} g(d_i) / w(i), w(1) = 1, w(i) = log2 i for i ≥ 2
//	               (positions 1 and 2 both weigh 1), IDCG@k = Σ_{i ≤ min(k, |G2|)} 1 / w(i)
//
// They are computed on whatever units the ranking and judgments name:
// chunks directly, or sessions and turns after UnitRanking and UnitJudgments
// (LongMemEval's session and turn granularity). Edge cases: k ≤ 0, an empty
// run or an empty G2 gives 0 for all three (LongMemEval's code gives
// recall_all = 1 for an empty G2; linemem never evaluates such a question).
// A unit listed twice counts once for the recalls and at each position for
// the DCG, as in the reference code.

// RecallAny is LongMemEval's recall_any@k (see above); it equals Success@k.
func RecallAny(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	return Success(ranked, judged, k)
}

// RecallAll is LongMemEval's recall_all@k (see above).
func RecallAll(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	g := PrimaryGold(judged)
	if g == 0 {
		return 0
	}
	seen := map[string]bool{} // none for k ≤ 0, so the result is 0
	for _, h := range top(ranked, k) {
		if judged[h.ChunkID] == PrimaryRel {
			seen[h.ChunkID] = true
		}
	}
	if len(seen) == g {
		return 1
	}
	return 0
}

// NDCGAny is LongMemEval's ndcg_any@k (see above).
func NDCGAny(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	g := PrimaryGold(judged)
	if g == 0 || k <= 0 {
		return 0
	}
	w := func(i int) float64 { return max(1, math.Log2(float64(i))) } // log2 1 = 0, log2 2 = 1
	dcg, idcg := 0.0, 0.0
	for i, h := range top(ranked, k) {
		if judged[h.ChunkID] == PrimaryRel {
			dcg += 1 / w(i+1)
		}
	}
	for i := 1; i <= min(k, g); i++ {
		idcg += 1 / w(i)
	}
	return dcg / idcg
}

// UnitRanking turns a ranking of chunks into a ranking of the units they
// hold (sessions, turns): each chunk's units in unitsOf order, a unit kept
// at its first occurrence with its chunk's score. A session is so ranked by
// its best chunk; a turn by the chunk it is first seen in.
func UnitRanking(ranked []ranking.Hit, unitsOf map[string][]string) []ranking.Hit {
	seen := map[string]bool{}
	var out []ranking.Hit
	for _, h := range ranked {
		for _, u := range unitsOf[h.ChunkID] {
			if !seen[u] {
				seen[u] = true
				out = append(out, ranking.Hit{ChunkID: u, Score: h.Score})
			}
		}
	}
	return out
}

// UnitJudgments judges units: every unit of gold is primary (rel 2).
func UnitJudgments(gold []string) map[string]int {
	j := make(map[string]int, len(gold))
	for _, u := range gold {
		j[u] = PrimaryRel
	}
	return j
}

// EvidenceRecall is LoCoMo's retrieval recall (Maharana et al., ACL 2024,
// §5: the share of a question's evidence dialogue turns found in the
// retrieved context), with chunks as the retrieved units:
//
//	EvidenceRecall@k = |E ∩ ⋃_{i ≤ min(k, n)} turns(d_i)| / |E|
//
// for the question's evidence turns E and turns(d) = unitsOf[d]. Edge
// cases: k ≤ 0, an empty run or an empty E gives 0; a turn in several
// chunks counts once.
func EvidenceRecall(ranked []ranking.Hit, unitsOf map[string][]string, evidence []string, k int) float64 {
	want := map[string]bool{}
	for _, e := range evidence {
		want[e] = true
	}
	if len(want) == 0 {
		return 0
	}
	found := map[string]bool{} // none for k ≤ 0, so the result is 0
	for _, h := range top(ranked, k) {
		for _, u := range unitsOf[h.ChunkID] {
			if want[u] {
				found[u] = true
			}
		}
	}
	return float64(len(found)) / float64(len(want))
}
