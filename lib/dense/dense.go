// Package dense is exact brute-force dense retrieval (spec §9): every chunk
// vector and the query vector are L2-normalised (a zero vector stays zero),
// score = inner product, order score desc then chunk ID desc (byte order).
//
// Precision. Vectors are float32, as stored; scores are computed in float64
// from those float32 values: score(q, r) = Σ r_j·q_j / (‖r‖·‖q‖), every
// product and sum in float64. This is the inner product of the normalised
// vectors up to float64 rounding (relative error about d·2⁻⁵³), the same
// numbers a float64 reference computes.
//
// Speed. Ranking all n rows by float64 products costs n·d multiply-adds per
// query in scalar Go. When only the top k are wanted, a float32 pass first
// scores every row approximately, for a whole batch of queries at once: on
// amd64 CPUs with AVX2 and FMA an assembly kernel takes four queries and
// three rows at a time (eight lanes of fused multiply-adds, panels of rows
// on all cores); elsewhere, or built with the purego tag, one gonum blas32
// GEMM does it. Its error is at most ε = γ(d+4) = (d+4)·u/(1 − (d+4)·u) with
// u = 2⁻²⁴ (Higham, "Accuracy and Stability of Numerical Algorithms", §3.1:
// the dot-product bound, plus the rounding of the normalised query and of the
// product scaling), whatever the summation order. Every row whose approximate
// score is within 2ε of the k-th best approximate score is then rescored in
// float64, so the top k and their scores are exactly those of the float64
// ranking.
//
// Range. Rows are read as given when every nonzero norm lies in [0.5, 2^64),
// and otherwise kept scaled by a power of two so that their norms lie in
// [0.5, 1); either way the float32 pass can neither overflow nor lose the
// bound to underflow in any realistic data. The float64 scores do not
// depend on the choice: scaling a row by 2^−e scales every product and
// partial sum of Σ r_j·q_j by 2^−e and 1/‖r‖ by 2^e, exactly (float32
// inputs leave float64 range to spare), so their product is the same
// number.
package dense

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"

	"github.com/linemem/linemem/lib/internal/parallel"
	"github.com/linemem/linemem/lib/ranking"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Matrix is n chunk vectors of one dimension, ready for search. It is
// immutable and safe for concurrent use.
type Matrix struct {
	ids  []string
	dim  int
	rows []float32 // n × dim: the vectors as given, or each scaled by the 2^k that puts its norm in [0.5, 1)
	inv  []float64 // 1/‖row i‖ in float64; 0 for a zero row
}

// NewMatrix returns the matrix of n = len(ids) vectors of dimension dim in
// data (row-major, len(data) = n·dim). dim must be positive; a NaN or
// infinite component is an error naming the first such row's ID and the
// component. IDs are not checked for uniqueness. When every nonzero row's
// norm lies in [0.5, 2^64) the matrix reads data as given, and the caller
// must not modify it afterwards; otherwise it keeps a scaled copy (see
// Matrix). Rows are measured on all cores.
func NewMatrix(ids []string, dim int, data []float32) (*Matrix, error) {
	if dim <= 0 {
		return nil, fmt.Errorf("dense: dimension %d, expected a positive dimension", dim)
	}
	if len(data) != len(ids)*dim {
		return nil, fmt.Errorf("dense: %d values for %d vectors of dimension %d, expected %d", len(data), len(ids), dim, len(ids)*dim)
	}
	n := len(ids)
	m := &Matrix{ids: slices.Clone(ids), dim: dim, inv: make([]float64, n)}
	sums := make([]float64, n)
	least := make([]uint32, n)
	const block = 256 // rows per task
	tasks := (n + block - 1) / block
	parallel.For(tasks, func(b int) {
		for i := b * block; i < min(n, (b+1)*block); i += 4 {
			k := min(4, n-i, (b+1)*block-i)
			rowStats(data[i*dim:(i+k)*dim], dim, sums[i:i+k], least[i:i+k])
		}
	})
	asGiven := true
	for i, sum := range sums {
		norm := math.Sqrt(sum)
		if math.IsNaN(norm) || math.IsInf(norm, 0) {
			for j, v := range data[i*dim : (i+1)*dim] {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fmt.Errorf("dense: vector %s: component %d is %v, expected a finite number", ids[i], j, v)
				}
			}
		}
		asGiven = asGiven && (norm == 0 || norm >= 0.5 && norm < 0x1p64)
	}
	if asGiven {
		m.rows = data
		for i, sum := range sums {
			if sum > 0 {
				m.inv[i] = 1 / math.Sqrt(sum)
			}
		}
		return m, nil
	}
	m.rows = make([]float32, len(data))
	parallel.For(tasks, func(b int) {
		for i := b * block; i < min(n, (b+1)*block); i++ {
			m.setRow(i, data[i*dim:(i+1)*dim], sums[i], least[i])
		}
	})
	return m, nil
}

// rowStats sets sums[r] to Σ v² of row r of rows (len(sums) rows of dim
// components, at most 4), accumulated in float64 in component order as
// norm64 does, and least[r] to the bits of its smallest nonzero |v| (all
// ones when there is none). Four rows at once keep four independent
// additions in flight; each row's sum is still the sequential one.
func rowStats(rows []float32, dim int, sums []float64, least []uint32) {
	if len(sums) < 4 {
		for r := range sums {
			sums[r], least[r] = 0, math.MaxUint32
			for _, v := range rows[r*dim : (r+1)*dim] {
				sums[r] += float64(v) * float64(v)
				least[r] = min(least[r], math.Float32bits(v)&0x7fffffff-1)
			}
			least[r]++
		}
		return
	}
	r0, r1, r2, r3 := rows[:dim], rows[dim:2*dim], rows[2*dim:3*dim], rows[3*dim:4*dim]
	var s0, s1, s2, s3 float64
	l0, l1, l2, l3 := uint32(math.MaxUint32), uint32(math.MaxUint32), uint32(math.MaxUint32), uint32(math.MaxUint32)
	for j := range r0 {
		a, b, c, d := r0[j], r1[j], r2[j], r3[j]
		s0 += float64(a) * float64(a)
		s1 += float64(b) * float64(b)
		s2 += float64(c) * float64(c)
		s3 += float64(d) * float64(d)
		// |v| bits − 1 wraps a zero to the largest value, so zeros never win.
		l0 = min(l0, math.Float32bits(a)&0x7fffffff-1)
		l1 = min(l1, math.Float32bits(b)&0x7fffffff-1)
		l2 = min(l2, math.Float32bits(c)&0x7fffffff-1)
		l3 = min(l3, math.Float32bits(d)&0x7fffffff-1)
	}
	sums[0], sums[1], sums[2], sums[3] = s0, s1, s2, s3
	least[0], least[1], least[2], least[3] = l0+1, l1+1, l2+1, l3+1
}

// setRow stores row i scaled by the power of two 2^−e that puts its norm
// √sum in [0.5, 1), and 1/‖scaled row‖ in float64; least is the bits of
// the row's smallest nonzero |component| (rowStats), every component is
// finite. Scaling by a power of two is exact unless a component falls below
// float32's normal range (2^−126); when none does, every square and partial
// sum of the norm scales exactly too (float64 has range to spare), so
// ‖scaled row‖ = ‖row‖·2^−e bit for bit and needs no second pass. The
// float32 product v·2^−e, when 2^−e is a normal float32, is the same
// correctly rounded value as float32(float64(v)·2^−e).
func (m *Matrix) setRow(i int, row []float32, sum float64, least uint32) {
	norm := math.Sqrt(sum)
	if norm == 0 {
		return
	}
	_, exp := math.Frexp(norm) // norm = frac · 2^exp, frac ∈ [0.5, 1)
	scale := math.Ldexp(1, -exp)
	dst := m.rows[i*m.dim : (i+1)*m.dim]
	const minNormal = 0x1p-126
	if scale >= minNormal && scale <= 0x1p127 && float64(math.Float32frombits(least))*scale >= minNormal {
		s := float32(scale)
		for j, v := range row {
			dst[j] = v * s
		}
		m.inv[i] = 1 / (norm * scale)
		return
	}
	for j, v := range row {
		dst[j] = float32(float64(v) * scale)
	}
	m.inv[i] = 1 / norm64(dst)
}

// Len returns the number of vectors.
func (m *Matrix) Len() int { return len(m.ids) }

// Dim returns the dimension.
func (m *Matrix) Dim() int { return m.dim }

// IDs returns the row IDs in row order; the caller must not modify them.
func (m *Matrix) IDs() []string { return m.ids }

// Search ranks the rows against q (len(q) must equal Dim; a mismatch is a
// programmer error and panics). k ≤ 0 returns every row. Equal scores are
// ordered by ID desc.
func (m *Matrix) Search(q []float32, k int) []ranking.Hit {
	return m.SearchBatch([][]float32{q}, k)[0]
}

// SearchBatch is Search for many queries: for k > 0 one float32 matrix
// product scores all queries against all rows, then each query's candidates
// are rescored in float64 (see the package doc); for k ≤ 0 every row is
// scored in float64. Queries are processed on all cores.
func (m *Matrix) SearchBatch(queries [][]float32, k int) [][]ranking.Hit {
	for i, q := range queries {
		if len(q) != m.dim {
			panic(fmt.Sprintf("dense: query %d has dimension %d, matrix has %d", i, len(q), m.dim))
		}
	}
	out := make([][]ranking.Hit, len(queries))
	if len(queries) == 0 {
		return out
	}
	if len(m.ids) == 0 {
		for i := range out {
			out[i] = []ranking.Hit{}
		}
		return out
	}
	if k <= 0 || k >= len(m.ids) {
		parallel.For(len(queries), func(i int) { out[i] = m.rankAll(queries[i]) })
		return out
	}
	approx := m.approxScores(queries)
	n := len(m.ids)
	parallel.For(len(queries), func(i int) { out[i] = m.rankTop(queries[i], approx[i*n:(i+1)*n], k) })
	return out
}

// approxScores returns the len(queries) × n float32 scores Q̂·Rᵀ·diag(inv)
// with Q̂ the normalised queries.
func (m *Matrix) approxScores(queries [][]float32) []float32 {
	n, d := len(m.ids), m.dim
	nq := len(queries)
	if haveKernel && useKernel {
		nq = (nq + 3) &^ 3 // the kernel takes queries four at a time; the padding is zero
	}
	qs := make([]float32, nq*d)
	for i, q := range queries {
		norm := norm64(q)
		if norm == 0 {
			continue
		}
		for j, v := range q {
			qs[i*d+j] = float32(float64(v) / norm)
		}
	}
	var c []float32
	if haveKernel && useKernel {
		c = m.product(qs, nq)
	} else {
		c = make([]float32, nq*n)
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: nq, Cols: d, Stride: d, Data: qs},
			blas32.General{Rows: n, Cols: d, Stride: d, Data: m.rows},
			0, blas32.General{Rows: nq, Cols: n, Stride: n, Data: c})
	}
	c = c[:len(queries)*n]
	for i := range queries {
		row := c[i*n : (i+1)*n]
		for j := range row {
			row[j] = float32(float64(row[j]) * m.inv[j])
		}
	}
	return c
}

// useKernel lets tests compare the vector kernel with gonum's blas32.
var useKernel = true

// panelRows is how many rows one task of product scores against every
// query: a panel stays in the core's cache while the queries stream past.
const panelRows = 48

// product returns the nq × n float32 products qs·Rᵀ (nq a multiple of 4)
// with the vector kernel, a panel of rows per task on all cores. Each entry
// is a float32 inner product summed in some order, which is all the error
// bound of the package doc assumes.
func (m *Matrix) product(qs []float32, nq int) []float32 {
	n, d := len(m.ids), m.dim
	d8 := d &^ 7
	c := make([]float32, nq*n)
	parallel.For((n+panelRows-1)/panelRows, func(p int) {
		lo, hi := p*panelRows, min(n, (p+1)*panelRows)
		var out [12]float32
		for qi := 0; qi < nq; qi += 4 {
			q := qs[qi*d : (qi+4)*d]
			for j := lo; j < hi; j += 3 {
				js := [3]int{j, min(j+1, hi-1), min(j+2, hi-1)}
				dot4x3(q, d, m.row(js[0]), m.row(js[1]), m.row(js[2]), d8, &out)
				for i := range 4 {
					qv := q[i*d : (i+1)*d]
					for k, r := range js {
						if r != j+k {
							break
						}
						s := out[3*i+k]
						for t, rv := range m.row(r)[d8:] {
							s += qv[d8+t] * rv
						}
						c[(qi+i)*n+r] = s
					}
				}
			}
		}
	})
	return c
}

// row returns row i of the scaled matrix.
func (m *Matrix) row(i int) []float32 { return m.rows[i*m.dim : (i+1)*m.dim] }

// errorBound is ε of the package doc for dimension d.
func errorBound(d int) float64 {
	const u = 0x1p-24
	nu := float64(d+4) * u
	return nu / (1 - nu)
}

// rankTop returns the exact top k given approximate scores.
func (m *Matrix) rankTop(q []float32, approx []float32, k int) []ranking.Hit {
	kth := kthLargest(approx, k)
	threshold := float64(kth) - 2*errorBound(m.dim)
	qinv := invNorm(q)
	var cand []int
	for j, a := range approx {
		if float64(a) >= threshold {
			cand = append(cand, j)
		}
	}
	hits := make([]ranking.Hit, len(cand))
	for i, j := range cand {
		hits[i] = ranking.Hit{ChunkID: m.ids[j], Score: m.exact(j, q, qinv)}
	}
	slices.SortFunc(hits, compareHits)
	return hits[:k]
}

// rankAll scores every row in float64 and sorts.
func (m *Matrix) rankAll(q []float32) []ranking.Hit {
	qinv := invNorm(q)
	hits := make([]ranking.Hit, len(m.ids))
	for j := range m.ids {
		hits[j] = ranking.Hit{ChunkID: m.ids[j], Score: m.exact(j, q, qinv)}
	}
	slices.SortFunc(hits, compareHits)
	return hits
}

// exact is Σ r_j·q_j · (1/‖r‖) · (1/‖q‖) in float64.
func (m *Matrix) exact(row int, q []float32, qinv float64) float64 {
	r := m.rows[row*m.dim : (row+1)*m.dim]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(r); j += 4 {
		s0 += float64(r[j]) * float64(q[j])
		s1 += float64(r[j+1]) * float64(q[j+1])
		s2 += float64(r[j+2]) * float64(q[j+2])
		s3 += float64(r[j+3]) * float64(q[j+3])
	}
	for ; j < len(r); j++ {
		s0 += float64(r[j]) * float64(q[j])
	}
	return (s0 + s1 + s2 + s3) * m.inv[row] * qinv
}

// compareHits orders by score desc, then chunk ID desc.
func compareHits(a, b ranking.Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(b.ChunkID, a.ChunkID)
}

func norm64(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func invNorm(v []float32) float64 {
	n := norm64(v)
	if n == 0 {
		return 0
	}
	return 1 / n
}

// kthLargest returns the k-th largest value of xs, 1 ≤ k ≤ len(xs), with a
// min-heap of size k.
func kthLargest(xs []float32, k int) float32 {
	h := minHeap(slices.Clone(xs[:k]))
	heap.Init(&h)
	for _, x := range xs[k:] {
		if x > h[0] {
			h[0] = x
			heap.Fix(&h, 0)
		}
	}
	return h[0]
}

type minHeap []float32

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(float32)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
