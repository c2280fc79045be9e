package retrieval

import (
	"fmt"

	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

// Explain breaks the fused score of chunkID for query into the weighted
// contributions of both components: for each, its rank and raw score in the
// component's top fusion.Depth, the normalised value and the weight; the BM25
// part carries the BM25 term breakdown as its child. The root's Value is the
// fused score Search reports (0 when the chunk is in neither top list).
func (h *Hybrid) Explain(query, chunkID string) (ranking.Explanation, error) {
	ex, ok := h.Fuser.(fusion.Explainer)
	if !ok {
		return ranking.Explanation{}, fmt.Errorf("%s: fusion %s cannot explain its scores", h.name, h.Fuser.Name())
	}
	sparse, err := h.Sparse.Search(query, fusion.Depth)
	if err != nil {
		return ranking.Explanation{}, err
	}
	vec, err := h.Dense.Search(query, fusion.Depth)
	if err != nil {
		return ranking.Explanation{}, err
	}
	fused, sp, dp := ex.Explain(sparse, vec, chunkID)
	part := func(name string, c fusion.Contribution) ranking.Explanation {
		if c.Rank == 0 {
			return ranking.Explanation{Message: fmt.Sprintf("%s: not in its top %d → 0", name, fusion.Depth)}
		}
		return ranking.Explanation{
			Value:   c.Weight * c.Normalised,
			Message: fmt.Sprintf("%s: weight %.2f × normalised %.6g; rank %d, score %.6g; %s", name, c.Weight, c.Normalised, c.Rank, c.Score, c.Method),
		}
	}
	sparsePart := part(h.Sparse.Name(), sp)
	if sp.Rank > 0 {
		terms, err := h.Sparse.Explain(query, chunkID)
		if err != nil {
			return ranking.Explanation{}, err
		}
		sparsePart.Children = []ranking.Explanation{terms}
	}
	return ranking.Explanation{
		Value:    fused,
		Message:  fmt.Sprintf("%s score of %s", h.name, chunkID),
		Children: []ranking.Explanation{sparsePart, part(h.Dense.Name(), dp)},
	}, nil
}
