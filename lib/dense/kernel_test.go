package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/ranking"
)

// kernelCase is seeded random data of n rows and nq queries of dimension d,
// Gaussian with a few exact duplicates, zero rows and zero queries.
func kernelCase(rng *rand.Rand, n, nq, d int) (*Matrix, [][]float32) {
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x", rng.Uint32())
		for j := range d {
			data[i*d+j] = float32(rng.NormFloat64())
		}
	}
	if n > 4 {
		copy(data[3*d:4*d], data[:d])
		clear(data[1*d : 2*d])
	}
	m, err := NewMatrix(ids, d, data)
	if err != nil {
		panic(err)
	}
	queries := make([][]float32, nq)
	for i := range queries {
		queries[i] = make([]float32, d)
		if i == 2 {
			continue // a zero query
		}
		for j := range d {
			queries[i][j] = float32(rng.NormFloat64())
		}
	}
	return m, queries
}

// TestApproxScoresWithinTheBound: every float32 score of the pass, with the
// vector kernel and with gonum's blas32, is within ε = errorBound(d) of the
// float64 score, for shapes that leave partial panels, row triples, query
// quadruples and 8-lane blocks.
func TestApproxScoresWithinTheBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	for _, n := range []int{1, 2, 3, 4, 5, panelRows - 1, panelRows, panelRows + 1, 2*panelRows + 7} {
		for _, d := range []int{1, 7, 8, 9, 16, 31, 100} {
			for _, nq := range []int{1, 3, 4, 5, 9} {
				m, queries := kernelCase(rng, n, nq, d)
				for _, kernel := range []bool{true, false} {
					if kernel && !haveKernel {
						continue
					}
					useKernel = kernel
					approx := m.approxScores(queries)
					useKernel = true
					if len(approx) != nq*n {
						t.Fatalf("n=%d d=%d nq=%d: %d scores, want %d", n, d, nq, len(approx), nq*n)
					}
					eps := errorBound(d)
					for i, q := range queries {
						qinv := invNorm(q)
						for j := range n {
							exact := m.exact(j, q, qinv)
							if diff := math.Abs(float64(approx[i*n+j]) - exact); diff > eps {
								t.Fatalf("kernel %v, n=%d d=%d nq=%d: score (%d, %d) = %v, exact %v: off by %.3g > ε = %.3g",
									kernel, n, d, nq, i, j, approx[i*n+j], exact, diff, eps)
							}
						}
					}
				}
			}
		}
	}
}

// TestKernelRanksAsBLAS: the vector kernel and gonum's blas32 only
// preselect, so the rankings are identical, scores and tie-breaks included.
func TestKernelRanksAsBLAS(t *testing.T) {
	if !haveKernel {
		t.Skip("no vector kernel on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 9))
	for _, shape := range [][3]int{{500, 37, 10}, {300, 1536, 7}, {2*panelRows + 1, 64, 4}} {
		n, d, nq := shape[0], shape[1], shape[2]
		m, queries := kernelCase(rng, n, nq, d)
		for _, k := range []int{1, 5, 200, n - 1} {
			got := m.SearchBatch(queries, k)
			useKernel = false
			want := m.SearchBatch(queries, k)
			useKernel = true
			for i := range got {
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("n=%d d=%d, query %d, k=%d: kernel and blas32 rankings differ", n, d, i, k)
				}
			}
		}
	}
}

// TestRowNormsAreThoseOfTheScaledRows: the one-pass norm of a scaled row is
// bit for bit 1/‖scaled row‖, for ordinary rows and for rows whose scaling
// rounds components below float32's normal range.
func TestRowNormsAreThoseOfTheScaledRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	rows := [][]float32{
		{1e30, 1e-30, 3, 0},      // 1e-30 underflows when scaled by 2^-100
		{1e-45, 2e-45, 0, 1e-44}, // subnormal input, scaled up exactly
		{3e38, -3e38, 1, 1e-20},  // near float32's largest value
		{0.75, 0, 0, 0},          // already in [0.5, 1): scale 1
		{1, 0, 0, 0},             // norm 1 scales to 0.5
		{float32(math.SmallestNonzeroFloat32), 1e10, 0, 0},
	}
	for range 200 {
		row := make([]float32, 4)
		for j := range row {
			row[j] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(200)-100)))
		}
		rows = append(rows, row)
	}
	var ids []string
	var data []float32
	for i, r := range rows {
		ids = append(ids, fmt.Sprint(i))
		data = append(data, r...)
	}
	m, err := NewMatrix(ids, 4, data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		r := m.row(i)
		if n := norm64(r); n < 0.5 || n >= 1 {
			t.Errorf("row %d: scaled norm %v, want it in [0.5, 1)", i, n)
		}
		if want := 1 / norm64(r); m.inv[i] != want {
			t.Errorf("row %d (%v): 1/norm %v, want %v", i, rows[i], m.inv[i], want)
		}
	}
}

// TestScoresDoNotDependOnScaling: a matrix read as given and one kept
// scaled (forced by one extra row of small norm) give every shared row the
// same float64 score, bit for bit.
func TestScoresDoNotDependOnScaling(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	const n, d = 300, 37
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range ids {
		ids[i] = fmt.Sprintf("%04d", i)
		scale := math.Pow(2, float64(rng.IntN(40)))
		for j := range d {
			data[i*d+j] = float32(rng.NormFloat64() * scale)
		}
	}
	given, err := NewMatrix(ids, d, data)
	if err != nil {
		t.Fatal(err)
	}
	if &given.rows[0] != &data[0] {
		t.Fatal("rows of norm ≥ 0.5 were copied, want them read as given")
	}
	small := append(slices.Clone(data), make([]float32, d)...)
	small[n*d] = 0.25
	scaled, err := NewMatrix(append(slices.Clone(ids), "small"), d, small)
	if err != nil {
		t.Fatal(err)
	}
	if &scaled.rows[0] == &small[0] {
		t.Fatal("a row of norm 0.25 was read as given, want the matrix scaled")
	}
	for range 20 {
		q := make([]float32, d)
		for j := range q {
			q[j] = float32(rng.NormFloat64())
		}
		qinv := invNorm(q)
		for i := range n {
			if a, b := given.exact(i, q, qinv), scaled.exact(i, q, qinv); a != b {
				t.Fatalf("row %d: score %v as given, %v scaled", i, a, b)
			}
		}
		got := given.Search(q, 10)
		want := slices.DeleteFunc(scaled.Search(q, 11), func(h ranking.Hit) bool { return h.ChunkID == "small" })[:10]
		if !slices.Equal(got, want) {
			t.Fatalf("top 10 differ: %v as given, %v scaled", got, want)
		}
	}
}
