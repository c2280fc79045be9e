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

// TestZScoreFarFromZero: σ is computed from the deviations s − μ, not from
// Σs² − nμ² (equal in exact arithmetic), which cancels catastrophically for
// scores far from 0: 3·10⁷ + 0, 0.5, 1.25 have μ = 3·10⁷ + 7/12 and
// Σ(s − μ)² = (7² + 1² + 8²)/12² = 114/144, σ = √(114/432).
func TestZScoreFarFromZero(t *testing.T) {
	const base = 3e7
	bm := hits("c", base+1.25, "b", base+0.5, "a", base)
	sd := math.Sqrt(114.0 / 432)
	want := []float64{(8.0 / 12) / sd, (-1.0 / 12) / sd, (-7.0 / 12) / sd}
	got := fusion.ZScore{Beta: 1}.Fuse(bm, nil)
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i, h := range got {
		if math.Abs(h.Score-want[i]) > 1e-6 {
			t.Errorf("%s: z = %.9f, want %.9f", h.ChunkID, h.Score, want[i])
		}
	}
}
