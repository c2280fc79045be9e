package lsa

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// csr is a sparse matrix in compressed sparse row form.
type csr struct {
	rows, cols int
	indptr     []int
	ind        []int32
	val        []float64
}

func newCSR(rows, cols int) *csr {
	return &csr{rows: 0, cols: cols, indptr: make([]int, 1, rows+1)}
}

func (a *csr) appendRow(idx []int32, val []float64) {
	a.ind = append(a.ind, idx...)
	a.val = append(a.val, val...)
	a.indptr = append(a.indptr, len(a.ind))
	a.rows++
}

// workers is the parallelism of the sparse products.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }

// mul returns A·X for dense X (cols × l), rows split among workers. Each
// output row is summed by one worker in a fixed order, so the result does not
// depend on the number of workers.
func (a *csr) mul(x *mat.Dense) *mat.Dense {
	_, l := x.Dims()
	xr := x.RawMatrix()
	out := mat.NewDense(a.rows, l, nil)
	or := out.RawMatrix()
	w := workers(a.rows)
	var wg sync.WaitGroup
	for p := range w {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				dst := or.Data[i*or.Stride : i*or.Stride+l]
				for e := a.indptr[i]; e < a.indptr[i+1]; e++ {
					v := a.val[e]
					src := xr.Data[int(a.ind[e])*xr.Stride : int(a.ind[e])*xr.Stride+l]
					for c, s := range src {
						dst[c] += v * s
					}
				}
			}
		}(p*a.rows/w, (p+1)*a.rows/w)
	}
	wg.Wait()
	return out
}

// transpose returns Aᵀ in CSR form (counting sort by column, so each row of
// Aᵀ lists its entries in increasing row order of A).
func (a *csr) transpose() *csr {
	t := &csr{rows: a.cols, cols: a.rows, indptr: make([]int, a.cols+1), ind: make([]int32, len(a.ind)), val: make([]float64, len(a.val))}
	for _, j := range a.ind {
		t.indptr[j+1]++
	}
	for j := range a.cols {
		t.indptr[j+1] += t.indptr[j]
	}
	next := append([]int(nil), t.indptr[:a.cols]...)
	for i := range a.rows {
		for e := a.indptr[i]; e < a.indptr[i+1]; e++ {
			j := a.ind[e]
			t.ind[next[j]] = int32(i)
			t.val[next[j]] = a.val[e]
			next[j]++
		}
	}
	return t
}

// orthonormalize replaces the columns of y (m × l, m ≥ l) by an orthonormal
// basis of their span: the thin Q of a Householder QR (LAPACK dgeqrf + dorgqr).
func orthonormalize(y *mat.Dense) {
	g := y.RawMatrix()
	_, l := y.Dims()
	tau := make([]float64, l)
	work := []float64{0}
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Geqrf(g, tau, work, len(work))
	work = []float64{0}
	lapack64.Orgqr(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Orgqr(g, tau, work, len(work))
}

// truncatedSVD returns the top k singular values of a and its top k right
// singular vectors as a cols × k row-major float32 matrix (see the package
// documentation for the algorithm).
func truncatedSVD(a *csr, o Options) ([]float64, []float32) {
	k := o.Dimension
	l := min(k+o.Oversample, a.rows, a.cols)
	rng := rand.New(rand.NewPCG(o.Seed, 0x4c5341))
	omega := mat.NewDense(a.cols, l, nil)
	od := omega.RawMatrix().Data
	for i := range od {
		od[i] = rng.NormFloat64()
	}
	at := a.transpose()
	y := a.mul(omega)
	for range o.PowerIters {
		orthonormalize(y)
		z := at.mul(y)
		orthonormalize(z)
		y = a.mul(z)
	}
	orthonormalize(y)
	bt := at.mul(y) // Bᵀ = AᵀQ, cols × l
	var gram mat.SymDense
	gram.SymOuterK(1, bt.T()) // BBᵀ, l × l
	var eig mat.EigenSym
	if !eig.Factorize(&gram, true) {
		panic("lsa: eigen-decomposition of the Gram matrix did not converge")
	}
	vals := eig.Values(nil)
	var w mat.Dense
	eig.VectorsTo(&w)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return vals[order[i]] > vals[order[j]] })
	sigma := make([]float64, k)
	wk := mat.NewDense(l, k, nil)
	for c := range k {
		src := order[c]
		sigma[c] = math.Sqrt(max(vals[src], 0))
		for r := range l {
			wk.Set(r, c, w.At(r, src))
		}
	}
	var vk mat.Dense
	vk.Mul(bt, wk) // cols × k, column c scaled by σ_c
	out := make([]float32, a.cols*k)
	for c := range k {
		scale := 0.0
		if sigma[c] > 1e-12*math.Max(sigma[0], 1) {
			scale = 1 / sigma[c]
		}
		best, sign := 0.0, 1.0
		for r := range a.cols {
			if v := vk.At(r, c); math.Abs(v) > best {
				best, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for r := range a.cols {
			out[r*k+c] = float32(sign * scale * vk.At(r, c))
		}
	}
	return sigma, out
}
