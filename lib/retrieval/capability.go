package retrieval

import (
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

// The capabilities a caller may ask a Retriever for, so that code above this
// package never names a concrete retriever type: it asserts one of these
// interfaces, or asks the retriever's Spec (NeedsVectors, Prefix). A new
// retriever gains a capability by implementing its method.

// Explainer is a Retriever that can break the score of chunkID for query into
// its parts (the BM25 terms; a fusion's weighted components). An error says
// the score cannot be explained (a fusion without contributions, a failed
// component search).
type Explainer interface {
	Explain(query, chunkID string) (ranking.Explanation, error)
}

// Lexical is a Retriever whose score is BM25 over one index; LexicalIndex
// returns that index (its document frequencies weigh a question's terms).
type Lexical interface {
	Retriever
	LexicalIndex() *bm25.Index
}

// Fused is a Retriever that fuses the top fusion.Depth of a sparse and a
// dense component with fuser (fusion.FuseTop), so a caller holding the
// components' lists can fuse them itself.
type Fused interface {
	Retriever
	Components() (sparse, dense Retriever, fuser fusion.Fuser)
}

// SubQuerier is a Retriever that searches sub-queries besides each question;
// SubQueries returns them, one list per query.
type SubQuerier interface {
	Retriever
	SubQueries(queries []string) ([][]string, error)
}

// Prefix reports whether the retriever's top k are the first k of its whole
// ranking (Search with k ≤ 0), so that a caller who filters the ranking
// itself may still ask for k hits only when it filters nothing: true for a
// single retriever and a fusion, false for a remedy (it reorders the base's
// top fusion.Depth) and a multi-query retriever (it merges sub-query lists).
func (s Spec) Prefix() bool { return s.Remedy == "" && s.Expander == "" }

// PlainVector reports whether the retriever is a single vector retriever
// alone: its score is the cosine of the question's and the chunk's vectors.
func (s Spec) PlainVector() bool {
	return s.Prefix() && s.Fusion == "" && s.Single.Method == MethodVector
}

// LexicalIndex implements Lexical.
func (r *BM25) LexicalIndex() *bm25.Index { return r.Index }

// Components implements Fused.
func (h *Hybrid) Components() (sparse, dense Retriever, fuser fusion.Fuser) {
	return h.Sparse, h.Dense, h.Fuser
}

var (
	_ Explainer  = (*BM25)(nil)
	_ Explainer  = (*Hybrid)(nil)
	_ Lexical    = (*BM25)(nil)
	_ Fused      = (*Hybrid)(nil)
	_ SubQuerier = (*MultiQuery)(nil)
)
