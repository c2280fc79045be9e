// Package hierarchy is a period-level memory above the chunks: chunks are
// grouped into units, each unit is searched as one document, and a chunk's
// score is fused with the score of its unit, so that a chunk from a period
// whose conversations as a whole match the question rises (paper §7.2 and
// §8.2: hierarchical, topic- or period-level memory for aggregate questions).
//
// Construction, exactly:
//
//   - Units (Build): one unit per source and calendar month of a chunk's first
//     message, ID "{source}|{YYYY-MM}". Its members are its chunks ordered by
//     StartAt, then chunk ID.
//
//   - Unit text: the members' summaries in member order, one per line
//     (a chunk without a summary contributes an empty line), after a first
//     line holding the source name without its extension. BM25 (lib/bm25,
//     spec §9 parameters, the corpus tokenizer) indexes the unit texts, N being
//     the number of units; ties between units are broken by the StartAt of
//     their first member desc, then unit ID desc.
//
//   - Fusion (Index.Fuse): for a base ranking of chunks (best first) and the
//     question's unit ranking, over the base's chunks only,
//
//     s(c) = (1 − γ)·ŝ_base(c) + γ·ŝ_unit(u(c))
//
//     where ŝ is the min–max normalisation of lib/fusion's linear hybrid: over
//     the base list for chunks, over the unit ranking (every unit holding a
//     query token) for units; 0 for every member when max = min; a unit
//     absent from the unit ranking, or a chunk in no unit, gets 0.
//     Ties are broken by chunk ID desc (byte order). γ = 0 keeps the base
//     order up to ties; the candidates, hence Recall at the base's depth,
//     never change.
package hierarchy

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
)

// Unit is one source-month of chunks.
type Unit struct {
	ID      string // "{source}|{YYYY-MM}"
	Source  string
	Month   string   // YYYY-MM of the members' StartAt
	Members []string // chunk IDs by StartAt, then ID
	Text    string   // the indexed text (see the package doc)
}

// Index searches units and maps chunks to them. It is immutable and safe for
// concurrent use.
type Index struct {
	Units  []Unit
	unitOf map[string]string
	bm25   *bm25.Index
}

// Build groups chunks into units, writes each unit's text from summaries
// (chunk ID → summary) and indexes the texts with tok.
func Build(chunks []chat.Chunk, summaries map[string]string, tok tokenize.Tokenizer) *Index {
	sorted := slices.Clone(chunks)
	slices.SortFunc(sorted, func(a, b chat.Chunk) int {
		return cmp.Or(cmp.Compare(a.StartAt, b.StartAt), cmp.Compare(a.ID, b.ID))
	})
	byID := map[string]int{}
	var units []Unit
	var lines [][]string
	start := map[string]string{}
	ix := &Index{unitOf: make(map[string]string, len(chunks))}
	for _, c := range sorted {
		m := c.StartAt
		if len(m) > 7 {
			m = m[:7]
		}
		id := c.Source + "|" + m
		i, ok := byID[id]
		if !ok {
			i = len(units)
			byID[id] = i
			units = append(units, Unit{ID: id, Source: c.Source, Month: m})
			lines = append(lines, []string{strings.TrimSuffix(c.Source, path.Ext(c.Source))})
			start[id] = c.StartAt
		}
		units[i].Members = append(units[i].Members, c.ID)
		lines[i] = append(lines[i], summaries[c.ID])
		ix.unitOf[c.ID] = id
	}
	slices.SortFunc(units, func(a, b Unit) int { return cmp.Compare(a.ID, b.ID) })
	docs := make([]bm25.Doc, len(units))
	for i := range units {
		units[i].Text = strings.Join(lines[byID[units[i].ID]], "\n")
		docs[i] = bm25.Doc{ID: units[i].ID, StartAt: start[units[i].ID], Text: units[i].Text}
	}
	ix.Units = units
	ix.bm25 = bm25.New(docs, tok)
	return ix
}

// UnitOf returns the unit ID of a chunk; ok is false for an unknown chunk.
func (ix *Index) UnitOf(chunkID string) (string, bool) {
	u, ok := ix.unitOf[chunkID]
	return u, ok
}

// Search returns the units matching query by BM25, best first (all when k ≤
// 0); Hit.ChunkID holds the unit ID.
func (ix *Index) Search(query string, k int) []ranking.Hit {
	return ix.bm25.Search(query, k)
}

// Fuse reorders base by s(c) = (1 − γ)·ŝ_base(c) + γ·ŝ_unit(u(c)) for the
// query's unit ranking units (see the package doc). The inputs are not
// modified; a repeated chunk ID keeps its first entry; a γ outside [0, 1] or
// NaN is an error.
func (ix *Index) Fuse(base, units []ranking.Hit, gamma float64) ([]ranking.Hit, error) {
	if !(gamma >= 0 && gamma <= 1) {
		return nil, fmt.Errorf("hierarchy: γ = %v, want a value in [0, 1]", gamma)
	}
	unitScore := normalised(units)
	seen := make(map[string]bool, len(base))
	var chunkIDs []string
	var chunkHits []ranking.Hit
	for _, h := range base {
		if !seen[h.ChunkID] {
			seen[h.ChunkID] = true
			chunkIDs = append(chunkIDs, h.ChunkID)
			chunkHits = append(chunkHits, h)
		}
	}
	chunkScore := normalised(chunkHits)
	out := make([]ranking.Hit, len(chunkIDs))
	for i, id := range chunkIDs {
		out[i] = ranking.Hit{ChunkID: id, Score: (1-gamma)*chunkScore[id] + gamma*unitScore[ix.unitOf[id]]}
	}
	slices.SortFunc(out, func(a, b ranking.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.ChunkID, a.ChunkID))
	})
	return out, nil
}

// normalised is fusion.MinMax of hits by ID (the first entry of a repeated
// ID counts); every value is 0 when max = min.
func normalised(hits []ranking.Hit) map[string]float64 {
	out := make(map[string]float64, len(hits))
	var keep []ranking.Hit
	for _, h := range hits {
		if _, ok := out[h.ChunkID]; !ok {
			out[h.ChunkID] = 0
			keep = append(keep, h)
		}
	}
	for i, v := range fusion.MinMax(keep) {
		out[keep[i].ChunkID] = v
	}
	return out
}
