package bootstrap_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/metrics"
)

// tol allows for the rounding of one multiply-add in an interpolation written
// differently from the package's.
const tol = 1e-15

func TestQuantile7(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	cases := []struct {
		name   string
		sorted []float64
		p      float64
		want   float64
	}{
		{"empty", nil, 0.5, math.NaN()},
		{"one value", []float64{7}, 0.3, 7},
		{"p=0 is min", x, 0, 1},
		{"p=1 is max", x, 1, 4},
		{"median", x, 0.5, 2 + 0.5*(3-2)},                    // h = 3·0.5 = 1.5
		{"2.5th percentile", x, 0.025, 1 + 0.075*(2-1)},      // h = 3·0.025 = 0.075; np.percentile gives 1.075
		{"97.5th percentile", x, 0.975, 4 - (1-0.925)*(4-3)}, // h = 2.925; np.percentile gives 3.925
		{"tie", []float64{0, 5, 5, 9}, 0.5, 5},
		{"p<0", x, -0.1, math.NaN()},
		{"p>1", x, 1.1, math.NaN()},
		{"p NaN", x, math.NaN(), math.NaN()},
		{"unequal spacing", []float64{0, 1, 10}, 0.8, 1 + 0.6*(10-1)}, // h = 2·0.8 = 1.6
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := bootstrap.Quantile7(c.sorted, c.p)
			if math.IsNaN(c.want) != math.IsNaN(got) || math.Abs(got-c.want) > tol*math.Max(1, math.Abs(c.want)) {
				t.Errorf("got %.17g, want %.17g", got, c.want)
			}
		})
	}
}

func TestIndicesDeterministic(t *testing.T) {
	a := bootstrap.NewIndices(50, 13, bootstrap.DefaultSeed)
	b := bootstrap.NewIndices(50, 13, bootstrap.DefaultSeed)
	c := bootstrap.NewIndices(50, 13, bootstrap.DefaultSeed+1)
	differs := false
	for r := range a.B() {
		if !slices.Equal(a.Row(r), b.Row(r)) {
			t.Fatalf("row %d differs for the same seed", r)
		}
		if !slices.Equal(a.Row(r), c.Row(r)) {
			differs = true
		}
		for _, j := range a.Row(r) {
			if j < 0 || j >= 13 {
				t.Fatalf("index %d out of range", j)
			}
		}
	}
	if !differs {
		t.Error("another seed drew the same matrix")
	}
	t.Run("documented generator", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(bootstrap.DefaultSeed, bootstrap.DefaultSeed))
		for r := range a.B() {
			for j, got := range a.Row(r) {
				if want := rng.IntN(13); got != want {
					t.Fatalf("entry [%d][%d] = %d, want %d", r, j, got, want)
				}
			}
		}
	})
}

func TestMeanCI(t *testing.T) {
	ix := bootstrap.NewIndices(bootstrap.DefaultB, 7, bootstrap.DefaultSeed)
	t.Run("constant vector has zero width", func(t *testing.T) {
		x := []float64{0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3}
		mean, lo, hi := ix.MeanCI(x, bootstrap.DefaultLevel)
		if lo != hi || math.Abs(mean-0.3) > tol || math.Abs(lo-0.3) > tol {
			t.Errorf("got %v [%v, %v], want 0.3 [0.3, 0.3]", mean, lo, hi)
		}
	})
	t.Run("interval brackets the mean", func(t *testing.T) {
		x := []float64{0, 1, 0, 1, 1, 0.5, 0}
		mean, lo, hi := ix.MeanCI(x, bootstrap.DefaultLevel)
		if want := 3.5 / 7; mean != want {
			t.Errorf("mean = %v, want %v", mean, want)
		}
		if !(0 <= lo && lo < mean && mean < hi && hi <= 1) {
			t.Errorf("interval [%v, %v] does not bracket %v inside [0, 1]", lo, hi, mean)
		}
		_, lo90, hi90 := ix.MeanCI(x, 0.90)
		if lo90 < lo || hi90 > hi {
			t.Errorf("90%% interval [%v, %v] wider than 95%% [%v, %v]", lo90, hi90, lo, hi)
		}
	})
	t.Run("quantiles of the resample means", func(t *testing.T) {
		x := []float64{0.1, 0.9, 0.4, 0.4, 0.7, 0, 1}
		means := ix.Means(x)
		slices.Sort(means)
		// h = (B − 1)·p: 4999·0.025 = 124.975 and 4999·0.975 = 4874.025.
		wantLo := means[124] + 0.975*(means[125]-means[124])
		wantHi := means[4874] + 0.025*(means[4875]-means[4874])
		_, lo, hi := ix.MeanCI(x, bootstrap.DefaultLevel)
		if math.Abs(lo-wantLo) > tol || math.Abs(hi-wantHi) > tol {
			t.Errorf("got [%.17g, %.17g], want [%.17g, %.17g]", lo, hi, wantLo, wantHi)
		}
	})
	t.Run("empty input", func(t *testing.T) {
		mean, lo, hi := bootstrap.NewIndices(10, 0, 1).MeanCI(nil, bootstrap.DefaultLevel)
		if !math.IsNaN(mean) || !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("got %v [%v, %v], want NaN", mean, lo, hi)
		}
	})
}

func TestPairedDiffCI(t *testing.T) {
	ix := bootstrap.NewIndices(bootstrap.DefaultB, 6, bootstrap.DefaultSeed)
	a := []float64{1, 0, 0.5, 1, 0, 0.25}
	t.Run("identical methods give [0, 0]", func(t *testing.T) {
		diff, lo, hi := ix.PairedDiffCI(a, slices.Clone(a), bootstrap.DefaultLevel)
		if diff != 0 || lo != 0 || hi != 0 {
			t.Errorf("got %v [%v, %v]", diff, lo, hi)
		}
	})
	t.Run("constant shift gives the shift", func(t *testing.T) {
		b := make([]float64, len(a))
		for i := range a {
			b[i] = a[i] - 0.25
		}
		diff, lo, hi := ix.PairedDiffCI(a, b, bootstrap.DefaultLevel)
		if diff != 0.25 || lo != 0.25 || hi != 0.25 {
			t.Errorf("got %v [%v, %v], want 0.25 [0.25, 0.25]", diff, lo, hi)
		}
	})
	t.Run("equals the interval of the difference vector", func(t *testing.T) {
		b := []float64{0, 0, 1, 1, 0.5, 0}
		d := []float64{1, 0, -0.5, 0, -0.5, 0.25}
		diff, lo, hi := ix.PairedDiffCI(a, b, bootstrap.DefaultLevel)
		m, wlo, whi := ix.MeanCI(d, bootstrap.DefaultLevel)
		if diff != m || lo != wlo || hi != whi {
			t.Errorf("got %v [%v, %v], want %v [%v, %v]", diff, lo, hi, m, wlo, whi)
		}
	})
}

// looseTol is how far our interval may sit from the conformance pack's, which
// NumPy drew from a different generator: with n = 7 one question moves a
// resample mean by 1/7 ≈ 0.14.
const looseTol = 0.15

func TestConformanceCIRoughly(t *testing.T) {
	qs, qrels := conformance.QuestionSet(t)
	var exp struct {
		Retrievers []struct {
			Name string                `json:"name"`
			Run  string                `json:"run"`
			CI   map[string][2]float64 `json:"ci"`
		} `json:"retrievers"`
	}
	conformance.ReadJSON(t, "expected_eval.json", &exp)
	for _, r := range exp.Retrievers {
		t.Run(r.Name, func(t *testing.T) {
			run := conformance.ReadRun(t, r.Run)
			res, err := metrics.Evaluate(qs, qrels, run, []string{"recall@5", "ndcg@5"})
			if err != nil {
				t.Fatal(err)
			}
			ix := bootstrap.NewIndices(bootstrap.DefaultB, len(res.QIDs), bootstrap.DefaultSeed)
			for _, m := range []string{"recall@5", "ndcg@5"} {
				_, lo, hi := ix.MeanCI(res.Scores(m), bootstrap.DefaultLevel)
				want := r.CI[m]
				t.Logf("%s CI [%.4f, %.4f], NumPy's [%.4f, %.4f]", m, lo, hi, want[0], want[1])
				if math.Abs(lo-want[0]) > looseTol || math.Abs(hi-want[1]) > looseTol {
					t.Errorf("%s CI [%v, %v], NumPy's [%v, %v]", m, lo, hi, want[0], want[1])
				}
			}
		})
	}
}

func ExampleIndices_PairedDiffCI() {
	// Per-question Recall@5 of two methods on the same eight questions.
	hybrid := []float64{1, 1, 0.5, 1, 0, 1, 1, 0.5}
	bm25 := []float64{1, 0, 0.5, 1, 0, 0, 1, 0.5}
	ix := bootstrap.NewIndices(bootstrap.DefaultB, len(hybrid), bootstrap.DefaultSeed)
	diff, lo, hi := ix.PairedDiffCI(hybrid, bm25, bootstrap.DefaultLevel)
	fmt.Printf("Δ = %+.3f, 95%% CI [%.3f, %.3f]\n", diff, lo, hi)
	_, same, same2 := ix.PairedDiffCI(bm25, bm25, bootstrap.DefaultLevel)
	fmt.Println("a method against itself:", same, same2)
	// Output:
	// Δ = +0.250, 95% CI [0.000, 0.625]
	// a method against itself: 0 0
}

func benchmarkMeanCI(b *testing.B, n int) {
	x := make([]float64, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range x {
		x[i] = rng.Float64()
	}
	ix := bootstrap.NewIndices(bootstrap.DefaultB, n, bootstrap.DefaultSeed)
	b.ResetTimer()
	for b.Loop() {
		ix.MeanCI(x, bootstrap.DefaultLevel)
	}
}

func BenchmarkMeanCI(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchmarkMeanCI(b, n) })
	}
}

func BenchmarkNewIndices(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				bootstrap.NewIndices(bootstrap.DefaultB, n, bootstrap.DefaultSeed)
			}
		})
	}
}

// TestMeansSumInIndexOrder: every resample mean is (Σ_j x[idx[r][j]])/n
// accumulated in index order, bit for bit, whatever B (so also for the
// resamples left over when B is not a multiple of four).
func TestMeansSumInIndexOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	x := make([]float64, 37)
	for i := range x {
		x[i] = rng.Float64() * math.Pow(10, float64(rng.IntN(30)-15)) // magnitudes far apart: order matters
	}
	for _, b := range []int{1, 3, 4, 5, 7, 8, 101} {
		ix := bootstrap.NewIndices(b, len(x), 5)
		got := ix.Means(x)
		for r := range b {
			sum := 0.0
			for _, j := range ix.Row(r) {
				sum += x[j]
			}
			if want := sum / float64(len(x)); got[r] != want {
				t.Fatalf("B = %d, resample %d: mean %.17g, want %.17g", b, r, got[r], want)
			}
		}
	}
}
