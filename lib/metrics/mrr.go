package metrics

import "github.com/linemem/linemem/lib/ranking"

// MRR is the reciprocal rank of the first primary-gold chunk within the cutoff
// (its macro mean over questions is MRR@k):
//
//	RR@k = 1/r for the smallest r ≤ min(k, n) with d_r ∈ G2, else 0
//
// Edge cases: k ≤ 0, an empty run or an empty G2 gives 0.
func MRR(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	for i, h := range top(ranked, k) {
		if judged[h.ChunkID] == PrimaryRel {
			return 1 / float64(i+1)
		}
	}
	return 0
}
