// Package diversify reorders a ranking so that its top holds chunks from
// several conversations rather than many chunks of one: aggregate questions
// (paper §7.2) need evidence spread over sources, which one flat ranking
// tends to fill with a single chat.
//
// MMR is maximal marginal relevance (Carbonell and Goldstein, SIGIR 1998)
// over a base ranking (best first). It keeps exactly the base's chunks and
// changes only their order, so Recall@k for k ≥ len(hits) is unchanged.
// Relevance is the base score min–max normalised over the list (lib/fusion's
// MinMax),
//
//	rel(d) = (s(d) − min)/(max − min), or 0 for every chunk when max = min,
//
// and the similarity of two chunks is 1 when they fall in the same group
// (Group; BySource groups by source) and 0 otherwise. Step i picks, among the
// chunks not yet picked,
//
//	argmax  λ·rel(d) − (1 − λ)·max over picked p of sim(d, p)
//
// (the max over no picked chunk is 0), ties broken by chunk ID desc (byte
// order). With this similarity a chunk whose group already has a picked
// chunk loses 1 − λ, so a chunk d of a new group overtakes a chunk c of a
// covered group when λ·(rel(c) − rel(d)) < 1 − λ. λ = 1 keeps the base order
// up to ties of the base score; λ = 0 ignores the base scores and orders by
// chunk ID desc, chunks of new groups first. The reordered hits carry rank scores (n − i)/n for the i-th of n (from 0), so
// that scores fall strictly with rank and run files that sort by score
// (trec_eval) keep the order.
package diversify

import (
	"fmt"
	"math"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

// Group maps a chunk ID to its group key. A chunk missing from the map is a
// group of its own.
type Group map[string]string

// BySource groups chunks by source (chat.Chunk.Source).
func BySource(chunks []chat.Chunk) Group {
	g := make(Group, len(chunks))
	for _, c := range chunks {
		g[c.ID] = c.Source
	}
	return g
}

func (g Group) key(id string) string {
	if k, ok := g[id]; ok {
		return "g:" + k
	}
	return "c:" + id
}

// MMR reorders hits by maximal marginal relevance with weight lambda and
// same-group similarity (see the package doc). The input is not modified;
// a repeated chunk ID keeps its first entry; empty hits give an empty result.
// A lambda outside [0, 1], or NaN, is an error.
func MMR(hits []ranking.Hit, lambda float64, g Group) ([]ranking.Hit, error) {
	if !(lambda >= 0 && lambda <= 1) {
		return nil, fmt.Errorf("diversify: MMR λ = %v, want a value in [0, 1]", lambda)
	}
	hits = dedupe(hits)
	rel := fusion.MinMax(hits)
	keys := make([]string, len(hits))
	for i, h := range hits {
		keys[i] = g.key(h.ChunkID)
	}
	picked := make([]bool, len(hits))
	covered := map[string]bool{}
	order := make([]int, 0, len(hits))
	for len(order) < len(hits) {
		best, bestVal := -1, math.Inf(-1)
		for i, h := range hits {
			if picked[i] {
				continue
			}
			v := lambda * rel[i]
			if covered[keys[i]] {
				v -= 1 - lambda
			}
			if best < 0 || v > bestVal || (v == bestVal && h.ChunkID > hits[best].ChunkID) {
				best, bestVal = i, v
			}
		}
		picked[best] = true
		covered[keys[best]] = true
		order = append(order, best)
	}
	n := float64(len(order))
	out := make([]ranking.Hit, len(order))
	for r, i := range order {
		out[r] = ranking.Hit{ChunkID: hits[i].ChunkID, Score: (n - float64(r)) / n}
	}
	return out, nil
}

func dedupe(hits []ranking.Hit) []ranking.Hit {
	seen := make(map[string]bool, len(hits))
	out := make([]ranking.Hit, 0, len(hits))
	for _, h := range hits {
		if !seen[h.ChunkID] {
			seen[h.ChunkID] = true
			out = append(out, h)
		}
	}
	return out
}
