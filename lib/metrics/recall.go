package metrics

import "github.com/linemem/linemem/lib/ranking"

// Recall is Recall@k over primary gold:
//
//	Recall@k = |{d1…dk} ∩ G2| / |G2|
//
// with the ranked list cut at min(k, n) entries. A chunk listed twice in the
// top k counts once. Edge cases: k ≤ 0 or an empty run gives 0; an empty G2
// gives 0 (Evaluate excludes such questions instead of scoring them).
func Recall(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	g2 := PrimaryGold(judged)
	if g2 == 0 {
		return 0
	}
	found := map[string]bool{}
	for _, h := range top(ranked, k) {
		if judged[h.ChunkID] == PrimaryRel {
			found[h.ChunkID] = true
		}
	}
	return float64(len(found)) / float64(g2)
}

// PrimaryRel is the relevance grade of primary gold (G2).
const PrimaryRel = 2

// PrimaryGold returns |G2|, the number of judged chunks with rel PrimaryRel.
func PrimaryGold(judged map[string]int) int {
	n := 0
	for _, rel := range judged {
		if rel == PrimaryRel {
			n++
		}
	}
	return n
}

// top returns the first min(k, len(ranked)) hits; none when k ≤ 0.
func top(ranked []ranking.Hit, k int) []ranking.Hit {
	return ranked[:min(max(k, 0), len(ranked))]
}
