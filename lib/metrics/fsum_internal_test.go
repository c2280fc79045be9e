package metrics

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactSum is the sum of x rounded once to float64 (to nearest, ties to
// even), computed with math/big at a precision no sum of float64 values can
// exceed: the reference that fsum must equal bit for bit.
func exactSum(x []float64) float64 {
	acc := new(big.Float).SetPrec(4096)
	for _, v := range x {
		acc.Add(acc, new(big.Float).SetPrec(4096).SetFloat64(v))
	}
	f, _ := acc.Float64()
	return f
}

func TestFsumIsCorrectlyRounded(t *testing.T) {
	p53 := math.Ldexp(1, 53)
	// CPython's test_fsum cases: cancellation and half-way rounding.
	cases := []struct {
		x    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 1.0},
		{[]float64{1, 1e100, 1, -1e100}, 2},
		{[]float64{1e16, 1, -1e16}, 1},
		{[]float64{p53, -0.5, -math.Ldexp(1, -54)}, p53 - 1},
		{[]float64{p53, 1, math.Ldexp(1, -100)}, p53 + 2},
		{[]float64{p53 + 10, 1, math.Ldexp(1, -100)}, p53 + 12},
		{[]float64{p53 - 4, 0.5, math.Ldexp(1, -54)}, p53 - 3},
		{[]float64{1.7976931348623157e308, -1.7976931348623157e308, 1e-300}, 1e-300},
	}
	for _, c := range cases {
		if got := fsum(c.x); got != c.want {
			t.Errorf("fsum(%v) = %v, want %v", c.x, got, c.want)
		}
		if ref := exactSum(c.x); ref != c.want {
			t.Fatalf("reference sum of %v = %v, want %v: the case is wrong", c.x, ref, c.want)
		}
	}
	// Random sets with wide exponents and cancellation, seeded.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		n := 1 + rng.IntN(12)
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Ldexp(rng.Float64()*2-1, rng.IntN(120)-60)
			if rng.IntN(4) == 0 && i > 0 {
				x[i] = -x[rng.IntN(i)] + math.Ldexp(1, rng.IntN(20)-70)
			}
		}
		if got, want := fsum(x), exactSum(x); got != want {
			t.Fatalf("trial %d: fsum(%v) = %v, want %v", trial, x, got, want)
		}
	}
}

// TestFsumLastTwoPartialsRound: when the last two partials do not add
// exactly (1 + 10⁻¹⁷ rounds to 1, remainder 10⁻¹⁷), the sum ends with no
// partial left below them, so the half-way check must not look one further.
func TestFsumLastTwoPartialsRound(t *testing.T) {
	for _, x := range [][]float64{{1, 1e-17}, {1e-17, 1}, {-1, -1e-17}, {1e16, 1}} {
		if got, want := fsum(x), exactSum(x); got != want {
			t.Errorf("fsum(%v) = %v, want %v", x, got, want)
		}
	}
}
