package fusion

import (
	"fmt"

	"github.com/linemem/linemem/lib/ranking"
)

// Contribution is one component list's share of a fused score.
type Contribution struct {
	Rank       int     // 1-based rank in the list's top Depth; 0 when absent
	Score      float64 // the component score; 0 when absent
	Normalised float64 // the score after the fuser's normalisation; 0 when absent
	Weight     float64 // the fuser's weight of this list
	Method     string  // how Normalised was computed, with its parameters
}

// Explainer is a Fuser that can break the fused score of one chunk into its
// two contributions. fused equals the score Fuse gives the chunk (0 when the
// chunk is in neither list's top Depth), and
// fused = bm25.Weight·bm25.Normalised + vec.Weight·vec.Normalised.
type Explainer interface {
	Fuser
	Explain(bm25, vec []ranking.Hit, chunkID string) (fused float64, sparse, dense Contribution)
}

// Explain implements Explainer.
func (f LinearMinMax) Explain(bm25, vec []ranking.Hit, chunkID string) (float64, Contribution, Contribution) {
	return explainLinear(f, bm25, vec, chunkID)
}

// Explain implements Explainer.
func (f RRF) Explain(bm25, vec []ranking.Hit, chunkID string) (float64, Contribution, Contribution) {
	part := func(hits []ranking.Hit) Contribution {
		hits = top(hits)
		c := Contribution{Weight: 1, Method: fmt.Sprintf("1/(%g + rank)", f.K)}
		c.Rank, c.Score = find(hits, chunkID)
		if c.Rank > 0 {
			c.Normalised = 1 / (f.K + float64(c.Rank))
		}
		return c
	}
	return fusedScore(f, bm25, vec, chunkID), part(bm25), part(vec)
}

// Explain implements Explainer.
func (f ZScore) Explain(bm25, vec []ranking.Hit, chunkID string) (float64, Contribution, Contribution) {
	return explainLinear(f, bm25, vec, chunkID)
}

// explainLinear is Explain of LinearMinMax and ZScore.
func explainLinear(f mixing, bm25, vec []ranking.Hit, chunkID string) (float64, Contribution, Contribution) {
	l := f.mixer()
	part := func(hits []ranking.Hit, weight float64) Contribution {
		hits = top(hits)
		c := Contribution{Weight: weight, Method: l.norm.method(hits)}
		c.Rank, c.Score = find(hits, chunkID)
		if c.Rank > 0 {
			c.Normalised = l.normalise(hits)[c.Rank-1]
		}
		return c
	}
	return fusedScore(f, bm25, vec, chunkID), part(bm25, l.beta), part(vec, 1-l.beta)
}

// find returns the 1-based rank and score of chunkID in hits, or 0, 0.
func find(hits []ranking.Hit, chunkID string) (int, float64) {
	for i, h := range hits {
		if h.ChunkID == chunkID {
			return i + 1, h.Score
		}
	}
	return 0, 0
}

// fusedScore is the score Fuse gives chunkID, 0 when it is not fused.
func fusedScore(f Fuser, bm25, vec []ranking.Hit, chunkID string) float64 {
	_, s := find(f.Fuse(bm25, vec), chunkID)
	return s
}
