package fusion

import (
	"fmt"
	"math"

	"github.com/linemem/linemem/lib/ranking"
)

// MinMax is the min–max normalisation of the linear hybrid (spec §9), also
// used by lib/diversify and lib/hierarchy: for each hit, in order,
//
//	s' = (s − min)/(max − min)
//
// with min and max taken over the scores of hits (repeated chunk IDs count
// as they stand; callers drop them first where they must). Edge cases:
// empty hits give an empty, non-nil slice; when max = min (a single hit,
// or all scores equal) every value is 0; when any score is NaN, min and max
// are NaN and every value is 0. An infinite score follows IEEE arithmetic
// (max − min = +Inf, so finite scores map to 0 and an infinite one to NaN).
// The input is not modified.
func MinMax(hits []ranking.Hit) []float64 {
	out := make([]float64, len(hits))
	lo, hi, ok := scoreRange(hits)
	if ok && hi > lo {
		for i, h := range hits {
			out[i] = (h.Score - lo) / (hi - lo)
		}
	}
	return out
}

// scoreRange returns the least and greatest score of hits (NaN if any score
// is NaN); ok is false for no hits.
func scoreRange(hits []ranking.Hit) (lo, hi float64, ok bool) {
	if len(hits) == 0 {
		return 0, 0, false
	}
	lo, hi = hits[0].Score, hits[0].Score
	for _, h := range hits[1:] {
		lo, hi = math.Min(lo, h.Score), math.Max(hi, h.Score)
	}
	return lo, hi, true
}

// zScores returns (s − μ)/σ for each hit, or 0 when σ = 0.
func zScores(hits []ranking.Hit) []float64 {
	out := make([]float64, len(hits))
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
	if sd > 0 {
		for i, h := range hits {
			out[i] = (h.Score - mean) / sd
		}
	}
	return out
}

// normalisation names the per-list normalisation of a fuser.
type normalisation int

const (
	minMaxNorm     normalisation = iota // MinMax
	zScoreNorm                          // zScores
	reciprocalRank                      // 1/(K + rank), rank from 1
)

// apply normalises hits; k is the rank constant of reciprocalRank.
func (n normalisation) apply(hits []ranking.Hit, k float64) []float64 {
	switch n {
	case zScoreNorm:
		return zScores(hits)
	case reciprocalRank:
		out := make([]float64, len(hits))
		for i := range hits {
			out[i] = 1 / (k + float64(i+1))
		}
		return out
	}
	return MinMax(hits)
}

// method describes a linear hybrid's normalisation (min–max or z-score)
// of hits, a list's top Depth, for an explanation.
func (n normalisation) method(hits []ranking.Hit) string {
	if n == zScoreNorm {
		return fmt.Sprintf("z-score over the top %d", len(hits))
	}
	lo, hi, ok := scoreRange(hits)
	if !ok {
		return "min–max over an empty list"
	}
	return fmt.Sprintf("min–max: (s − %.6g)/(%.6g − %.6g) over the top %d", lo, hi, lo, len(hits))
}
