// Package bootstrap computes percentile bootstrap confidence intervals over
// questions (spec §10; Efron & Tibshirani 1993, ch. 13): one B × n matrix of
// question indices, drawn once from a seeded generator, is reused for every
// metric and method, so paired differences see identical resamples.
//
// The generator is math/rand/v2's PCG seeded as rand.New(rand.NewPCG(seed,
// seed)); the matrix is filled row by row (resample 0 first), each entry
// IntN(n). The same (B, n, seed) always gives the same matrix and therefore
// the same intervals. NumPy, used by the conformance pack, draws different
// indices, so intervals agree with it only roughly.
//
// Subsets: for a subset of the questions (one question type, say), draw a
// fresh matrix of the subset's size with the same seed, NewIndices(B,
// len(subset), seed), rather than restricting the full matrix to the subset's
// rows; restricted resamples would have random sizes. Methods compared on the
// same subset still share that subset's matrix.
package bootstrap

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/linemem/linemem/lib/internal/parallel"
	"github.com/linemem/linemem/lib/metrics"
)

// Defaults of spec §10 and the paper.
const (
	DefaultB     = 5000  // resamples
	DefaultSeed  = 12345 // generator seed
	DefaultLevel = 0.95  // two-sided confidence level
)

// Generator describes how NewIndices draws, for provenance records.
const Generator = "math/rand/v2 PCG(seed, seed), IntN(n) row by row"

// Indices is a B × n matrix of question indices drawn uniformly with
// replacement.
type Indices struct {
	b, n int
	idx  []int32 // row-major, b rows of n
}

// NewIndices draws a b × n matrix with rand.New(rand.NewPCG(seed, seed)),
// row by row, each entry IntN(n). n = 0 gives b empty resamples. It panics
// when b < 1, n < 0 or n exceeds the int32 range (programmer mistakes).
func NewIndices(b, n int, seed uint64) *Indices {
	if b < 1 || n < 0 || int(int32(n)) != n {
		panic("bootstrap: NewIndices needs b ≥ 1 and 0 ≤ n ≤ MaxInt32")
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	idx := make([]int32, b*n)
	for i := range idx {
		idx[i] = int32(rng.IntN(n))
	}
	return &Indices{b: b, n: n, idx: idx}
}

// B returns the number of resamples.
func (ix *Indices) B() int { return ix.b }

// N returns the number of questions per resample.
func (ix *Indices) N() int { return ix.n }

// Row returns resample r's question indices (a copy).
func (ix *Indices) Row(r int) []int {
	row := make([]int, ix.n)
	for j, v := range ix.idx[r*ix.n : (r+1)*ix.n] {
		row[j] = int(v)
	}
	return row
}

// Means returns the B resample means of x, (1/n)·Σ_j x[idx[r][j]] for each
// resample r, summed in index order, on all cores. It panics when
// len(x) ≠ N(). With n = 0 every mean is NaN.
func (ix *Indices) Means(x []float64) []float64 {
	if len(x) != ix.n {
		panic("bootstrap: vector length differs from the index matrix's n")
	}
	means := make([]float64, ix.b)
	const block = 256 // resamples per task, a multiple of four
	tasks := slices.Collect(slices.Chunk(means, block))
	parallel.For(len(tasks), func(t int) {
		ix.means(x, tasks[t], t*block)
	})
	return means
}

// means sets out[r] to the mean of resample first + r, for r < len(out).
// Four resamples at a time keep four independent additions in flight; each
// resample's sum is still accumulated in index order.
func (ix *Indices) means(x, out []float64, first int) {
	n := ix.n
	idx := ix.idx[first*n:]
	r := 0
	for ; r+4 <= len(out); r += 4 {
		i0, i1, i2, i3 := idx[r*n:(r+1)*n], idx[(r+1)*n:(r+2)*n], idx[(r+2)*n:(r+3)*n], idx[(r+3)*n:(r+4)*n]
		var s0, s1, s2, s3 float64
		for j := range i0 {
			s0 += x[i0[j]]
			s1 += x[i1[j]]
			s2 += x[i2[j]]
			s3 += x[i3[j]]
		}
		out[r], out[r+1], out[r+2], out[r+3] = s0/float64(n), s1/float64(n), s2/float64(n), s3/float64(n)
	}
	for ; r < len(out); r++ {
		sum := 0.0
		for _, j := range idx[r*n : (r+1)*n] {
			sum += x[j]
		}
		out[r] = sum / float64(n)
	}
}

func (ix *Indices) MeanCI(x []float64, level float64) (mean, lo, hi float64) {
	if ix.n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	lo, hi = percentileInterval(ix.Means(x), level)
	return metrics.Mean(x), lo, hi
}

// PairedDiffCI returns the mean difference of two methods' per-question
// scores, mean(a) − mean(b) computed as the mean of a[i] − b[i], and its
// paired percentile interval: per resample, the mean of a − b over the same
// question indices, then the quantiles of MeanCI. Identical a and b give
// (0, 0, 0). It panics when len(a) or len(b) ≠ N() or level is outside
// (0, 1); with n = 0 all three values are NaN.
func (ix *Indices) PairedDiffCI(a, b []float64, level float64) (diff, lo, hi float64) {
	if len(a) != len(b) {
		panic("bootstrap: paired vectors differ in length")
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return ix.MeanCI(d, level)
}

func percentileInterval(means []float64, level float64) (lo, hi float64) {
	if !(level > 0 && level < 1) {
		panic("bootstrap: level must be in (0, 1)")
	}
	slices.Sort(means)
	return Quantile7(means, (1-level)/2), Quantile7(means, (1+level)/2)
}

// Quantile7 returns the p-quantile (0 ≤ p ≤ 1) of sorted, ascending data
// by Hyndman & Fan's (1996) definition 7, NumPy's default "linear" method:
//
//	h = (n − 1)·p, i = ⌊h⌋, t = h − i
//	Q = x[i] + t·(x[i+1] − x[i])
//
// evaluated as NumPy's _lerp does (x[i+1] − (x[i+1] − x[i])·(1 − t) when
// t ≥ 0.5) so results match np.percentile(x, 100·p) to the last bit for the
// same h. np.percentile([1, 2, 3, 4], 2.5) = 1.075 is Quantile7(x, 0.025).
// sorted must be ascending (a precondition, not checked). An empty slice or
// a p outside [0, 1] or NaN gives NaN.
func Quantile7(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	h := float64(n-1) * p
	i := int(math.Floor(h))
	if i >= n-1 {
		return sorted[n-1]
	}
	t := h - float64(i)
	a, b := sorted[i], sorted[i+1]
	if a == b {
		return a
	}
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}
