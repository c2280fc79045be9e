package dense_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/dense"
)

// randomMatrix returns n seeded random d-dimensional rows (Gaussian, as
// embedding components roughly are) and q queries.
func randomMatrix(b *testing.B, n, d, q int) (*dense.Matrix, [][]float32) {
	rng := rand.New(rand.NewPCG(1536, uint64(n)))
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range ids {
		ids[i] = fmt.Sprintf("%016x", rng.Uint64())
	}
	for i := range data {
		data[i] = float32(rng.NormFloat64())
	}
	m, err := dense.NewMatrix(ids, d, data)
	if err != nil {
		b.Fatal(err)
	}
	queries := make([][]float32, q)
	for i := range queries {
		queries[i] = make([]float32, d)
		for j := range queries[i] {
			queries[i][j] = float32(rng.NormFloat64())
		}
	}
	return m, queries
}

// BenchmarkSearch is one query at a time, top 200 and the full ranking, at
// three corpus sizes of 1,536-dimensional vectors (the paper's 22,329 chunks
// of text-embedding-3-small).
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{1000, 5000, 22000} {
		m, queries := randomMatrix(b, n, 1536, 20)
		for _, k := range []int{200, 0} {
			b.Run(fmt.Sprintf("n=%d/k=%d", n, k), func(b *testing.B) {
				var lat []time.Duration
				i := 0
				for b.Loop() {
					t0 := time.Now()
					m.Search(queries[i%len(queries)], k)
					lat = append(lat, time.Since(t0))
					i++
				}
				slices.Sort(lat)
				b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
			})
		}
	}
}

// BenchmarkSearchBatch is 100 questions as one matrix product, top 200.
func BenchmarkSearchBatch(b *testing.B) {
	for _, n := range []int{5000, 22000} {
		m, queries := randomMatrix(b, n, 1536, 100)
		b.Run(fmt.Sprintf("n=%d/queries=100/k=200", n), func(b *testing.B) {
			for b.Loop() {
				m.SearchBatch(queries, 200)
			}
		})
	}
}

// BenchmarkNewMatrix copies and scales 22,000 × 1,536 values.
func BenchmarkNewMatrix(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 22000, 1536
	ids := make([]string, n)
	data := make([]float32, n*d)
	for i := range data {
		data[i] = float32(rng.NormFloat64())
	}
	for b.Loop() {
		if _, err := dense.NewMatrix(ids, d, data); err != nil {
			b.Fatal(err)
		}
	}
}
