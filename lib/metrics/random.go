package metrics

// The random-ranking floor: the expected value of a metric when the top k is
// a uniformly random ordering of a corpus of n units of which g are
// relevant (1 ≤ g ≤ n). The number of relevant units among the first k is
// hypergeometric (population n, g successes, k draws), so:
//
//	E[Recall@k]  = k′ / n                              k′ = min(k, n)
//	E[Success@k] = 1 − C(n − g, k′) / C(n, k′)
//	E[MRR@k]     = Σ_{r=1}^{k′} (1/r) · P(first relevant at r),
//	P(first relevant at r) = Π_{i=0}^{r−2} (n − g − i)/(n − i) · g/(n − r + 1)
//
// (the first r − 1 draws miss, the r-th hits). Each ratio product is
// evaluated term by term, never through factorials, so large corpora do not
// overflow. Edge cases: k ≤ 0, n ≤ 0 or g ≤ 0 gives 0; g > n is read as
// g = n. Recall of a question with g relevant units and evidence spread over
// them has the same floor k′/n for any g.

// RandomRecall is E[Recall@k] of a uniform random ranking of n units.
func RandomRecall(n, g, k int) float64 {
	if n <= 0 || g <= 0 {
		return 0
	}
	return float64(min(max(k, 0), n)) / float64(n)
}

// RandomSuccess is E[Success@k] of a uniform random ranking of n units with
// g relevant ones: 1 − C(n−g, k′)/C(n, k′).
func RandomSuccess(n, g, k int) float64 {
	g, k = min(max(g, 0), n), min(k, n)
	// C(n−g, k)/C(n, k) = Π_{i<k} (n−g−i)/(n−i); once a factor is 0 (every
	// irrelevant unit drawn) the product stays ±0. No factor when k ≤ 0 or
	// n ≤ 0; every factor 1 when g = 0.
	miss := 1.0
	for i := range k {
		miss *= float64(n-g-i) / float64(n-i)
	}
	return 1 - miss
}

// RandomMRR is E[MRR@k] of a uniform random ranking of n units with g
// relevant ones (see the formula above).
func RandomMRR(n, g, k int) float64 {
	g, k = min(max(g, 0), n), min(k, n)
	// missSoFar: the first r−1 draws are all irrelevant; once 0 it stays ±0.
	// No term when k ≤ 0 or n ≤ 0; every term 0 when g = 0.
	sum, missSoFar := 0.0, 1.0
	for r := 1; r <= k; r++ {
		sum += missSoFar * float64(g) / float64(n-r+1) / float64(r)
		missSoFar *= float64(n-g-(r-1)) / float64(n-(r-1))
	}
	return sum
}
