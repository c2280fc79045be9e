// Package fusion combines a BM25 ranking and a dense ranking into one
// (spec §9). Every fuser reads only the top Depth of each component list, in
// the given order, and returns the union of those candidates ordered by fused
// score desc, then chunk ID desc (byte order). If a chunk ID repeats inside
// one list, its first (best) entry counts and later ones are ignored.
//
//   - LinearMinMax, the paper's hybrid (spec §9, exact): per list,
//     s' = (s − min)/(max − min), or 0 for every member when max = min;
//     a chunk absent from a list gets 0 from it;
//     fused = (1 − β)·vec' + β·bm25'.
//   - RRF, reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009):
//     fused = Σ over lists holding the chunk of 1/(K + rank), rank from 1.
//   - ZScore: per list z = (s − μ)/σ with the mean μ and population standard
//     deviation σ of the list's top-Depth scores (z = 0 for every member when
//     σ = 0); a chunk absent from a list gets 0 from it, i.e. it counts as an
//     average member of that list, not as its worst;
//     fused = (1 − β)·vec_z + β·bm25_z.
package fusion

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/linemem/linemem/lib/ranking"
)

// Depth is how many hits of each component list a fuser reads (spec §9, D).
const Depth = 200

// Fuser combines a BM25 and a dense ranking, each best first. The inputs are
// not modified.
type Fuser interface {
	// Name identifies the fusion and its parameters, e.g. "hybrid@0.45".
	Name() string
	// Fuse returns the fused ranking of the union of both lists' top Depth.
	Fuse(bm25, vec []ranking.Hit) []ranking.Hit
}

// BetaGrid returns the paper's 21 BM25 weights i/20 for i = 0…20, each
// computed as a single division so that 0.35 is the float64 nearest 7/20.
func BetaGrid() []float64 {
	grid := make([]float64, 21)
	for i := range grid {
		grid[i] = float64(i) / 20
	}
	return grid
}

// FormatBeta prints β with two decimals, as retriever names do (spec §9).
func FormatBeta(beta float64) string { return fmt.Sprintf("%.2f", beta) }

// LinearMinMax is the paper's linear hybrid of min–max normalised scores;
// Beta is the BM25 weight in [0, 1].
type LinearMinMax struct{ Beta float64 }

// Name returns "hybrid@β" with β to two decimals.
func (f LinearMinMax) Name() string { return "hybrid@" + FormatBeta(f.Beta) }

// Fuse implements Fuser; see the package doc.
func (f LinearMinMax) Fuse(bm25, vec []ranking.Hit) []ranking.Hit {
	b, v := top(bm25), top(vec)
	return combine(minMax(b), minMax(v), func(sb, sv float64) float64 {
		return (1-f.Beta)*sv + f.Beta*sb
	}, b, v)
}

// RRF is reciprocal rank fusion with rank constant K (60 in the original
// paper and here by convention; K = 0 is allowed).
type RRF struct{ K float64 }

// Name returns "rrf", or "rrf(k=K)" when K is not 60.
func (f RRF) Name() string {
	if f.K == 60 {
		return "rrf"
	}
	return fmt.Sprintf("rrf(k=%g)", f.K)
}

// Fuse implements Fuser; see the package doc.
func (f RRF) Fuse(bm25, vec []ranking.Hit) []ranking.Hit {
	b, v := top(bm25), top(vec)
	recip := func(hits []ranking.Hit) map[string]float64 {
		m := make(map[string]float64, len(hits))
		for i, h := range hits {
			m[h.ChunkID] = 1 / (f.K + float64(i+1))
		}
		return m
	}
	return combine(recip(b), recip(v), func(sb, sv float64) float64 { return sb + sv }, b, v)
}

// ZScore is the linear hybrid of z-score normalised scores; Beta is the BM25
// weight in [0, 1].
type ZScore struct{ Beta float64 }

// Name returns "zscore@β" with β to two decimals.
func (f ZScore) Name() string { return "zscore@" + FormatBeta(f.Beta) }

// Fuse implements Fuser; see the package doc.
func (f ZScore) Fuse(bm25, vec []ranking.Hit) []ranking.Hit {
	b, v := top(bm25), top(vec)
	return combine(zScores(b), zScores(v), func(sb, sv float64) float64 {
		return (1-f.Beta)*sv + f.Beta*sb
	}, b, v)
}

// top returns the first Depth hits with repeated chunk IDs removed (first
// kept).
func top(hits []ranking.Hit) []ranking.Hit {
	out := make([]ranking.Hit, 0, min(len(hits), Depth))
	seen := make(map[string]bool, min(len(hits), Depth))
	for _, h := range hits {
		if len(out) == Depth {
			break
		}
		if seen[h.ChunkID] {
			continue
		}
		seen[h.ChunkID] = true
		out = append(out, h)
	}
	return out
}

// minMax maps each chunk to (s − m)/(M − m), or 0 when M = m.
func minMax(hits []ranking.Hit) map[string]float64 {
	out := make(map[string]float64, len(hits))
	if len(hits) == 0 {
		return out
	}
	lo, hi := hits[0].Score, hits[0].Score
	for _, h := range hits[1:] {
		lo, hi = math.Min(lo, h.Score), math.Max(hi, h.Score)
	}
	for _, h := range hits {
		if hi > lo {
			out[h.ChunkID] = (h.Score - lo) / (hi - lo)
		} else {
			out[h.ChunkID] = 0
		}
	}
	return out
}

// zScores maps each chunk to (s − μ)/σ, or 0 when σ = 0.
func zScores(hits []ranking.Hit) map[string]float64 {
	out := make(map[string]float64, len(hits))
	if len(hits) == 0 {
		return out
	}
	var sum float64
	for _, h := range hits {
		sum += h.Score
	}
	mean := sum / float64(len(hits))
	var ss float64
	for _, h := range hits {
		ss += (h.Score - mean) * (h.Score - mean)
	}
	sd := math.Sqrt(ss / float64(len(hits)))
	for _, h := range hits {
		if sd > 0 {
			out[h.ChunkID] = (h.Score - mean) / sd
		} else {
			out[h.ChunkID] = 0
		}
	}
	return out
}

// combine scores the union of the two lists with mix(bm25 part, vec part),
// a missing part being 0, and orders by score desc, chunk ID desc.
func combine(bm25, vec map[string]float64, mix func(sb, sv float64) float64, b, v []ranking.Hit) []ranking.Hit {
	out := make([]ranking.Hit, 0, len(b)+len(v))
	seen := make(map[string]bool, len(b)+len(v))
	for _, list := range [][]ranking.Hit{b, v} {
		for _, h := range list {
			if seen[h.ChunkID] {
				continue
			}
			seen[h.ChunkID] = true
			out = append(out, ranking.Hit{ChunkID: h.ChunkID, Score: mix(bm25[h.ChunkID], vec[h.ChunkID])})
		}
	}
	slices.SortFunc(out, func(x, y ranking.Hit) int {
		if c := cmp.Compare(y.Score, x.Score); c != 0 {
			return c
		}
		return cmp.Compare(y.ChunkID, x.ChunkID)
	})
	return out
}
