// Package ranking holds the types every retriever, fuser and metric speaks:
// a ranked Hit, a Run of ranked lists by question, graded Qrels, and the
// Explanation tree that breaks a score into its parts. It computes nothing
// and imports nothing of linemem, so any floor may import it; lib/trec reads
// and writes these types in the TREC file formats.
package ranking

// Hit is one ranked item: a chunk and its score under the method that ranked
// it. A higher score ranks higher; ties are ordered by the producer (each
// package states its tie rule).
type Hit struct {
	ChunkID string
	Score   float64
}

// Run maps a question ID to its ranked hits, best first.
type Run map[string][]Hit

// Qrels maps a question ID to chunk ID → graded relevance (0, 1 or 2 in
// linemem; 2 is primary gold).
type Qrels map[string]map[string]int
