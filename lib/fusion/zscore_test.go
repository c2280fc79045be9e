package fusion_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/lib/fusion"
)

// TestZScoreUnevenList uses a list whose σ is not 1 and whose mean is not a
// member, so that the mean, σ and the division are each visible in the fused
// scores.
func TestZScoreUnevenList(t *testing.T) {
	// bm25 4, 1, 1: μ = 2, σ = √((4 + 1 + 1)/3) = √2 → z = 2/√2, −1/√2, −1/√2.
	// vec 0.9, 0.3: μ = 0.6, σ = 0.3 → z = 1, −1.
	bm := hits("a", 4.0, "b", 1.0, "c", 1.0)
	vec := hits("b", 0.9, "d", 0.3)
	got := fusion.ZScore{Beta: 0.25}.Fuse(bm, vec)
	want := hits(
		"b", 0.75*1+0.25*(-1/math.Sqrt2),
		"a", 0.25*(2/math.Sqrt2),
		"c", 0.25*(-1/math.Sqrt2),
		"d", 0.75*-1,
	)
	assertHits(t, got, want)
}
