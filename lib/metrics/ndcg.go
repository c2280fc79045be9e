package metrics

import (
	"math"
	"sort"

	"github.com/linemem/linemem/lib/ranking"
)

// NDCG is nDCG@k with exponential gain (Järvelin & Kekäläinen 2002, in the
// gain form of Burges et al. 2005):
//
//	DCG@k  = Σ_{i ≤ min(k, n)} (2^rel(d_i) − 1) / log2(i + 1)
//	IDCG@k = DCG@k of all judged chunks of q sorted by rel descending
//	nDCG@k = DCG@k / IDCG@k
//
// Unjudged chunks have rel 0 (gain 0). The ideal list holds every judged
// chunk, not only the ones the run retrieved, so missing gold lowers the
// score. Edge cases: k ≤ 0 or an empty run gives 0; IDCG@k = 0 (no chunk with
// rel ≥ 1) gives 0. A chunk listed twice earns its gain at both positions.
// trec_eval's ndcg_cut uses gain rel instead of 2^rel − 1 (see the package
// documentation).
func NDCG(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	k = max(k, 0) // IDCG@0 = 0
	ideal := make([]int, 0, len(judged))
	for _, rel := range judged {
		ideal = append(ideal, rel)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ideal)))
	idcg := dcg(ideal, k)
	if idcg == 0 {
		return 0
	}
	rels := make([]int, 0, min(k, len(ranked)))
	for _, h := range top(ranked, k) {
		rels = append(rels, judged[h.ChunkID])
	}
	return dcg(rels, k) / idcg
}

// dcg sums (2^rel − 1)/log2(i + 1) over the first min(k, len(rels)) grades,
// i counted from 1.
func dcg(rels []int, k int) float64 {
	sum := 0.0
	for i, rel := range rels[:min(k, len(rels))] {
		sum += (math.Exp2(float64(rel)) - 1) / math.Log2(float64(i+2))
	}
	return sum
}
