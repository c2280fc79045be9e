// Package fusion combines a BM25 ranking and a dense ranking into one
// (spec §9). Every fuser reads only the top Depth of each component list, in
// the given order, and returns the union of those candidates ordered by fused
// score desc, then chunk ID desc (byte order). If a chunk ID repeats inside
// one list, its first (best) entry counts and later ones are ignored.
//
//   - LinearMinMax, the paper's hybrid (spec §9, exact): per list (MinMax),
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
func (f LinearMinMax) Fuse(bm25, vec []ranking.Hit) []ranking.Hit { return fuseAll(f, bm25, vec) }

func (f LinearMinMax) mixer() mixer { return mixer{norm: minMaxNorm, beta: f.Beta} }

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
func (f RRF) Fuse(bm25, vec []ranking.Hit) []ranking.Hit { return fuseAll(f, bm25, vec) }

func (f RRF) mixer() mixer { return mixer{norm: reciprocalRank, k: f.K} }

// ZScore is the linear hybrid of z-score normalised scores; Beta is the BM25
// weight in [0, 1].
type ZScore struct{ Beta float64 }

// Name returns "zscore@β" with β to two decimals.
func (f ZScore) Name() string { return "zscore@" + FormatBeta(f.Beta) }

// Fuse implements Fuser; see the package doc.
func (f ZScore) Fuse(bm25, vec []ranking.Hit) []ranking.Hit { return fuseAll(f, bm25, vec) }

func (f ZScore) mixer() mixer { return mixer{norm: zScoreNorm, beta: f.Beta} }

// mixing is a fuser of this package: its mixer says how it scores.
type mixing interface {
	Fuser
	mixer() mixer
}

// mixer is how a fuser of this package scores: it normalises each component
// list's top Depth, then mixes a chunk's two normalised parts (0 from a list
// that lacks it) into the fused score, sb + sv for RRF and
// (1 − β)·sv + β·sb for LinearMinMax and ZScore, the one linear mix.
// Mixers with equal normaliser() values normalise alike, so candidates
// computed for one serve all of them.
type mixer struct {
	norm normalisation
	k    float64 // RRF's rank constant
	beta float64 // the BM25 weight of a linear mix
}

func (m mixer) normalise(hits []ranking.Hit) []float64 { return m.norm.apply(hits, m.k) }

// normaliser identifies the normalisation with its parameter.
func (m mixer) normaliser() mixer { return mixer{norm: m.norm, k: m.k} }

func (m mixer) mix(sb, sv float64) float64 {
	if m.norm == reciprocalRank {
		return sb + sv
	}
	return (1-m.beta)*sv + m.beta*sb
}

// fuseAll is Fuse of a fuser of this package: every candidate, ordered.
func fuseAll(f mixing, bm25, vec []ranking.Hit) []ranking.Hit {
	m := f.mixer()
	return fuseTop(m, candidatesOf(m, bm25, vec), 0)
}

// candidates is the union of two component lists' top Depth, in order of
// first appearance (the BM25 list first), with each chunk's normalised part
// from either list (0 when absent).
type candidates struct {
	ids    []string
	sb, sv []float64
}

// candidatesOf normalises both lists' top Depth with f and forms their
// union.
func candidatesOf(f mixer, bm25, vec []ranking.Hit) candidates {
	b, v := top(bm25), top(vec)
	nb, nv := f.normalise(b), f.normalise(v)
	c := candidates{
		ids: make([]string, 0, len(b)+len(v)),
		sb:  make([]float64, 0, len(b)+len(v)),
		sv:  make([]float64, 0, len(b)+len(v)),
	}
	at := make(map[string]int, len(b)+len(v))
	for i, h := range b {
		at[h.ChunkID] = len(c.ids)
		c.ids = append(c.ids, h.ChunkID)
		c.sb = append(c.sb, nb[i])
		c.sv = append(c.sv, 0)
	}
	for i, h := range v {
		if j, ok := at[h.ChunkID]; ok {
			c.sv[j] = nv[i]
			continue
		}
		c.ids = append(c.ids, h.ChunkID)
		c.sb = append(c.sb, 0)
		c.sv = append(c.sv, nv[i])
	}
	return c
}

// fuseTop scores the candidates with f's mix and returns the top k ordered
// by score desc, chunk ID desc (all of them when k ≤ 0). Since chunk IDs are
// distinct the order is total, so selecting the top k and sorting every
// candidate then cutting give the same list.
func fuseTop(f mixer, c candidates, k int) []ranking.Hit {
	n := len(c.ids)
	if k <= 0 || k > n {
		k = n
	}
	if k*8 < n {
		return selectTop(f, c, k)
	}
	out := make([]ranking.Hit, n)
	for i, id := range c.ids {
		out[i] = ranking.Hit{ChunkID: id, Score: f.mix(c.sb[i], c.sv[i])}
	}
	slices.SortFunc(out, compareHits)
	return out[:k]
}

// selectTop is fuseTop for k much smaller than the candidates: one pass
// keeping the best k so far in order, each newcomer inserted in place.
func selectTop(f mixer, c candidates, k int) []ranking.Hit {
	out := make([]ranking.Hit, 0, k)
	for i, id := range c.ids {
		h := ranking.Hit{ChunkID: id, Score: f.mix(c.sb[i], c.sv[i])}
		if len(out) == k && compareHits(h, out[k-1]) >= 0 {
			continue
		}
		if len(out) < k {
			out = append(out, h)
		} else {
			out[k-1] = h
		}
		for j := len(out) - 1; j > 0 && compareHits(out[j], out[j-1]) < 0; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// compareHits orders by score desc, then chunk ID desc.
func compareHits(x, y ranking.Hit) int {
	if c := cmp.Compare(y.Score, x.Score); c != 0 {
		return c
	}
	return cmp.Compare(y.ChunkID, x.ChunkID)
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
