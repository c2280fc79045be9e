package bootstrap_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
)

func TestHolm(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		p    []float64
		want []float64
	}{
		{"empty", nil, []float64{}},
		{"one", []float64{0.03}, []float64{0.03}},
		// sorted 0.01, 0.02, 0.04: 3·0.01, max(0.03, 2·0.02), max(0.04, 1·0.04)
		{"three", []float64{0.04, 0.01, 0.02}, []float64{0.04, 3 * 0.01, 2 * 0.02}},
		// sorted 0.01, 0.30, 0.31: 0.03, 2·0.30, max(0.6, 0.31) keeps the running maximum
		{"monotone", []float64{0.31, 0.30, 0.01}, []float64{2 * 0.30, 2 * 0.30, 3 * 0.01}},
		{"capped at 1", []float64{0.6, 0.7}, []float64{1, 1}},
		{"NaN skipped", []float64{0.02, nan, 0.01}, []float64{2 * 0.01, nan, 2 * 0.01}},
	}
	const tol = 1e-15 // one multiplication each
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bootstrap.Holm(tc.p)
			if len(got) != len(tc.want) {
				t.Fatalf("Holm(%v) = %v, want %v", tc.p, got, tc.want)
			}
			for i := range got {
				if math.IsNaN(tc.want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-tc.want[i]) > tol {
					t.Errorf("Holm(%v)[%d] = %v, want %v", tc.p, i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestPairedP(t *testing.T) {
	ix := bootstrap.NewIndices(2000, 4, 7)
	same := []float64{1, 0, 1, 0}
	if p := ix.PairedP(same, same); p != 1 {
		t.Errorf("identical vectors: p = %v, want 1", p)
	}
	// a − b = 1 on every question: every resample mean is 1 > 0, none ≤ 0.
	if p := ix.PairedP([]float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}); p != 0 {
		t.Errorf("a always above b: p = %v, want 0", p)
	}
	// Directly from the definition on the resample means.
	a, b := []float64{1, 0, 1, 1}, []float64{0, 1, 0, 1}
	d := []float64{1, -1, 1, 0}
	le, ge := 0, 0
	for _, m := range ix.Means(d) {
		if m <= 0 {
			le++
		}
		if m >= 0 {
			ge++
		}
	}
	want := min(1, 2*float64(min(le, ge))/2000)
	if p := ix.PairedP(a, b); p != want {
		t.Errorf("p = %v, want %v", p, want)
	}
	if p := bootstrap.NewIndices(10, 0, 1).PairedP(nil, nil); !math.IsNaN(p) {
		t.Errorf("n = 0: p = %v, want NaN", p)
	}
}
