package metrics

import (
	"cmp"
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
//
// A unit listed twice (a ranking of turns labelled by their session, as
// evaluate_retrieval_turn2session scores it) counts once for the recalls and
// at each position for the DCG, as in the reference code, whose ideal ranking
// sorts the relevance of every corpus entry, so a gold unit held by r entries
// adds r ideal gains. NDCGAny follows that convention with the ranking taken
// as the corpus's entries: the ideal holds R = Σ_{g ∈ G2} max(1, r_g) gains,
// r_g the times g appears in the whole ranking, and
//
//	IDCG@k = Σ_{i ≤ min(k, R)} 1 / w(i)
//
// which equals the reference where the ranking lists every corpus entry,
// reduces to min(k, |G2|) terms when no unit repeats, and keeps ndcg_any ≤ 1
// (a ranking repeating a gold unit cannot score above its ideal).

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
	entries := map[string]int{}
	for _, h := range ranked {
		if judged[h.ChunkID] == PrimaryRel {
			entries[h.ChunkID]++
		}
	}
	ideal := g
	for _, r := range entries {
		ideal += r - 1
	}
	for i := 1; i <= min(k, ideal); i++ {
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

// SessionCutoff is the k that LongMemEval's turn-to-session scoring
// (evaluate_retrieval_turn2session in src/retrieval/eval_utils.py) evaluates
// a ranking of turns at, given the session of each ranked turn in rank
// order: the smallest k' ≥ k whose first k' turns name k distinct sessions,
// or len(sessions)+1 when the whole ranking names fewer (the reference's
// loop stops there). k ≤ 0 is returned as is.
func SessionCutoff(sessions []string, k int) int {
	if k <= 0 {
		return k
	}
	seen := map[string]bool{}
	for i, s := range sessions {
		seen[s] = true
		if len(seen) >= k {
			return max(k, i+1)
		}
	}
	return max(k, len(sessions)+1)
}

// TurnToSession scores a ranking of turns at the session level as
// LongMemEval's evaluate_retrieval_turn2session does: every ranked turn is
// replaced by its session (sessionOf; repeats kept), the cutoff becomes
// SessionCutoff(…, k), and recall_any, recall_all and ndcg_any are computed
// on that ranking with the gold sessions as G2. In LongMemEval's corpus a
// turn of an answer session that is not a target turn carries another
// session label ("noans_…"), so it is not gold: sessionOf must map such a
// turn to a label that is not among gold. A turn missing from sessionOf
// stands for itself.
func TurnToSession(ranked []ranking.Hit, sessionOf map[string]string, gold []string, k int) (recallAny, recallAll, ndcgAny float64) {
	labels := make([]string, len(ranked))
	sessions := make([]ranking.Hit, len(ranked))
	for i, h := range ranked {
		labels[i] = cmp.Or(sessionOf[h.ChunkID], h.ChunkID)
		sessions[i] = ranking.Hit{ChunkID: labels[i], Score: h.Score}
	}
	judged := UnitJudgments(gold)
	kk := SessionCutoff(labels, k)
	return RecallAny(sessions, judged, kk), RecallAll(sessions, judged, kk), NDCGAny(sessions, judged, kk)
}
