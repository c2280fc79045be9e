package bootstrap_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
)

// TestQuantile7HalfwayUsesNumPysLerp pins the branch at t = 0.5: NumPy
// computes b − (b − a)·(1 − t) when t ≥ 0.5, and for these two values that
// differs in the last bit from a + (b − a)·t.
func TestQuantile7HalfwayUsesNumPysLerp(t *testing.T) {
	a, b := 9.120685437784987e-20, 9.158478749628045e-11
	got := bootstrap.Quantile7([]float64{a, b}, 0.5) // h = 0.5: i = 0, t = 0.5
	if want := b - (b-a)*0.5; got != want {
		t.Errorf("Quantile7 = %v, want b − (b − a)·0.5 = %v", got, want)
	}
	if a+(b-a)*0.5 == b-(b-a)*0.5 {
		t.Fatal("the two formulas agree on these values: the case no longer tells them apart")
	}
}

func TestNewIndicesSmallestShapes(t *testing.T) {
	ix := bootstrap.NewIndices(1, 0, 1) // B = 1 and n = 0 are both allowed
	if ix.B() != 1 || ix.N() != 0 || len(ix.Row(0)) != 0 {
		t.Errorf("NewIndices(1, 0) = B %d, n %d, row %v", ix.B(), ix.N(), ix.Row(0))
	}
	for _, c := range []struct{ b, n int }{{0, 3}, {1, -1}, {1, math.MaxInt32 + 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewIndices(%d, %d) did not panic", c.b, c.n)
				}
			}()
			bootstrap.NewIndices(c.b, c.n, 1)
		}()
	}
}

func TestMeanCILevelMustBeInsideTheUnitInterval(t *testing.T) {
	ix := bootstrap.NewIndices(10, 3, 1)
	for _, level := range []float64{0, 1, -0.5, 1.5} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MeanCI at level %v did not panic", level)
				}
			}()
			ix.MeanCI([]float64{1, 2, 3}, level)
		}()
	}
	if _, lo, hi := ix.MeanCI([]float64{1, 2, 3}, 0.95); !(lo <= hi) {
		t.Errorf("MeanCI(0.95) = [%v, %v]", lo, hi)
	}
}

// TestMeansAreTheRowMeans: Means(x)[r] = (1/n)·Σ_j x[Row(r)[j]], summed in
// index order, for every resample r, with B spanning several blocks of
// resamples and a last block that is not a multiple of four.
func TestMeansAreTheRowMeans(t *testing.T) {
	x := []float64{0.1, 0.7, 0.25, 1, 0, 0.5, 0.3}
	for _, b := range []int{1, 5, 1031} {
		ix := bootstrap.NewIndices(b, len(x), 3)
		means := ix.Means(x)
		if len(means) != b {
			t.Fatalf("B = %d: %d means", b, len(means))
		}
		for r := range b {
			sum := 0.0
			for _, j := range ix.Row(r) {
				sum += x[j]
			}
			if want := sum / float64(len(x)); means[r] != want {
				t.Fatalf("B = %d: Means[%d] = %v, want %v", b, r, means[r], want)
			}
		}
	}
}
