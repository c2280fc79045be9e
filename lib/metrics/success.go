package metrics

import "github.com/linemem/linemem/lib/ranking"

// Success is 1 when any of d1…dk (cut at min(k, n)) is primary gold, else 0.
// A question with Success@k = 0 is a "Top-k failure" (spec §10).
// Edge cases: k ≤ 0, an empty run or an empty G2 gives 0.
func Success(ranked []ranking.Hit, judged map[string]int, k int) float64 {
	if MRR(ranked, judged, k) > 0 {
		return 1
	}
	return 0
}
