package memory

import "github.com/linemem/linemem/lib/retrieval"

// Explain breaks the score of chunkID for question into its parts (the BM25
// terms, or a linear hybrid's weighted components) when the retriever is a
// retrieval.Explainer; "" for one whose score is a plain cosine or a rank
// fusion.
func (m *Memory) Explain(question, chunkID string) (string, error) {
	ex, ok := m.retriever.(retrieval.Explainer)
	if !ok {
		return "", nil
	}
	e, err := ex.Explain(question, chunkID)
	if err != nil {
		return "", err
	}
	return e.String(), nil
}
