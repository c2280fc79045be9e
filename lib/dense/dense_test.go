package dense_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/dense"
	"github.com/linemem/linemem/lib/ranking"
)

// tol compares float64 scores computed in two summation orders of
// d ≤ 64 products of magnitude ≤ 1: a few ulps of 1.
const tol = 1e-13

func TestNewMatrixErrors(t *testing.T) {
	cases := []struct {
		name string
		ids  []string
		dim  int
		data []float32
		want string
	}{
		{"zero dimension", []string{"a"}, 0, nil, "positive dimension"},
		{"too few values", []string{"a", "b"}, 2, []float32{1, 2, 3}, "expected 4"},
		{"too many values", []string{"a"}, 2, []float32{1, 2, 3}, "expected 2"},
		{"NaN", []string{"a", "b"}, 2, []float32{1, 2, float32(math.NaN()), 0}, "vector b: component 0"},
		{"Inf", []string{"a"}, 2, []float32{1, float32(math.Inf(-1))}, "vector a: component 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := dense.NewMatrix(c.ids, c.dim, c.data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestSearch(t *testing.T) {
	// rows: a = (3, 4), b = (1, 0), c = (0, 0), d = (-2, 0), e = (6, 8) = 2a
	m, err := dense.NewMatrix([]string{"a", "b", "c", "d", "e"}, 2, []float32{3, 4, 1, 0, 0, 0, -2, 0, 6, 8})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		q    []float32
		k    int
		want []ranking.Hit
	}{
		{"all rows, ties by id desc", []float32{2, 0}, 0, []ranking.Hit{
			{ChunkID: "b", Score: 1},
			{ChunkID: "e", Score: 3.0 / 5}, // (3,4)/5 · (1,0)
			{ChunkID: "a", Score: 3.0 / 5},
			{ChunkID: "c", Score: 0}, // zero vector stays zero
			{ChunkID: "d", Score: -1},
		}},
		{"top 2", []float32{2, 0}, 2, []ranking.Hit{{ChunkID: "b", Score: 1}, {ChunkID: "e", Score: 3.0 / 5}}},
		{"top 3 cuts a tie by id", []float32{0, 1}, 3, []ranking.Hit{{ChunkID: "e", Score: 4.0 / 5}, {ChunkID: "a", Score: 4.0 / 5}, {ChunkID: "d", Score: 0}}},
		{"zero query: all zero, id desc", []float32{0, 0}, 0, []ranking.Hit{
			{ChunkID: "e"}, {ChunkID: "d"}, {ChunkID: "c"}, {ChunkID: "b"}, {ChunkID: "a"},
		}},
		{"k beyond n returns all", []float32{1, 1}, 9, []ranking.Hit{
			{ChunkID: "e", Score: 7 / (5 * math.Sqrt2)},
			{ChunkID: "a", Score: 7 / (5 * math.Sqrt2)},
			{ChunkID: "b", Score: 1 / math.Sqrt2},
			{ChunkID: "c", Score: 0},
			{ChunkID: "d", Score: -1 / math.Sqrt2},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertHits(t, m.Search(c.q, c.k), c.want)
		})
	}
}

func TestEmpty(t *testing.T) {
	m, err := dense.NewMatrix(nil, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Search([]float32{1, 2, 3}, 5); len(got) != 0 {
		t.Errorf("Search on empty matrix = %v", got)
	}
	if got := m.SearchBatch(nil, 5); len(got) != 0 {
		t.Errorf("SearchBatch(nil) = %v", got)
	}
}

// TestAgainstReference compares SearchBatch with a direct float64
// implementation (normalise, then dot) on seeded random data whose components
// are small integers, so many scores tie exactly and many nearly tie.
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	const n, d = 400, 24
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", rng.Uint64())
		for j := range d {
			data[i*d+j] = float32(rng.IntN(3) - 1)
		}
	}
	copy(data[5*d:6*d], data[9*d:10*d]) // an exact duplicate row
	queries := make([][]float32, 30)
	for i := range queries {
		queries[i] = make([]float32, d)
		for j := range d {
			queries[i][j] = float32(rng.NormFloat64())
		}
	}
	queries[0] = slices.Clone(data[9*d : 10*d])
	m, err := dense.NewMatrix(ids, d, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 10, 200, n - 1} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			batch := m.SearchBatch(queries, k)
			for i, q := range queries {
				want := reference(ids, d, data, q)
				assertSameRanking(t, batch[i], want, k)
				assertSameRanking(t, m.Search(q, k), want, k)
			}
		})
	}
}

// reference ranks by the inner product of float64-normalised vectors.
func reference(ids []string, d int, data []float32, q []float32) []ranking.Hit {
	unit := func(v []float32) []float64 {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		out := make([]float64, len(v))
		if s == 0 {
			return out
		}
		for i, x := range v {
			out[i] = float64(x) / math.Sqrt(s)
		}
		return out
	}
	uq := unit(q)
	hits := make([]ranking.Hit, len(ids))
	for i, id := range ids {
		ur := unit(data[i*d : (i+1)*d])
		var s float64
		for j := range ur {
			s += ur[j] * uq[j]
		}
		hits[i] = ranking.Hit{ChunkID: id, Score: s}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].Score != hits[b].Score {
			return hits[a].Score > hits[b].Score
		}
		return hits[a].ChunkID > hits[b].ChunkID
	})
	return hits
}

// assertSameRanking checks got against the first k (all when k ≤ 0) of the
// full reference ranking want, allowing items whose scores differ by less
// than tol to swap, also across the cut: the two computations round
// differently.
func assertSameRanking(t *testing.T, got, want []ranking.Hit, k int) {
	t.Helper()
	if k <= 0 {
		k = len(want)
	}
	if len(got) != k {
		t.Fatalf("got %d hits, want %d", len(got), k)
	}
	for i := range got {
		if math.Abs(got[i].Score-want[i].Score) > tol {
			t.Fatalf("rank %d: score %v, want %v", i+1, got[i], want[i])
		}
		if got[i].ChunkID != want[i].ChunkID {
			j := slices.IndexFunc(want, func(h ranking.Hit) bool { return h.ChunkID == got[i].ChunkID })
			if j < 0 || math.Abs(want[j].Score-want[i].Score) > tol {
				t.Fatalf("rank %d: %v, want %v", i+1, got[i], want[i])
			}
		}
	}
}

func assertHits(t *testing.T, got, want []ranking.Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i].ChunkID != want[i].ChunkID || math.Abs(got[i].Score-want[i].Score) > tol {
			t.Errorf("rank %d: got %v, want %v", i+1, got[i], want[i])
		}
	}
}

func ExampleMatrix_Search() {
	m, err := dense.NewMatrix([]string{"c1", "c2", "c3"}, 2, []float32{1, 0, 0, 1, 1, 1})
	if err != nil {
		panic(err)
	}
	for _, h := range m.Search([]float32{3, 1}, 2) {
		fmt.Printf("%s %.4f\n", h.ChunkID, h.Score)
	}
	// Output:
	// c1 0.9487
	// c3 0.8944
}

// TestNearTiesBeyondFloat32 ranks rows that differ by less than float32 can
// resolve: the float32 pre-selection alone would cut them in the wrong
// place, the float64 rescoring must not.
func TestNearTiesBeyondFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 71))
	const n, d = 300, 64
	base := make([]float64, d)
	for j := range base {
		base[j] = rng.NormFloat64()
	}
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x", rng.Uint32())
		for j := range d {
			data[i*d+j] = float32(base[j] * (1 + 1e-6*rng.NormFloat64()))
		}
	}
	q := make([]float32, d)
	for j := range q {
		q[j] = float32(base[j] + 0.5*rng.NormFloat64())
	}
	m, err := dense.NewMatrix(ids, d, data)
	if err != nil {
		t.Fatal(err)
	}
	want := reference(ids, d, data, q)
	for _, k := range []int{1, 3, 10, 50, 150} {
		assertSameRanking(t, m.Search(q, k), want, k)
	}
}
