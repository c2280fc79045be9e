package memory

import "github.com/linemem/linemem/lib/retrieval"

// Explain breaks the score of chunkID for question into its parts: the BM25
// terms, or a linear hybrid's weighted components; "" for a retriever whose
// score is a plain cosine or a rank fusion.
func (m *Memory) Explain(question, chunkID string) (string, error) {
	switch v := m.retriever.(type) {
	case *retrieval.BM25:
		return v.Explain(question, chunkID).String(), nil
	case *retrieval.Hybrid:
		e, err := v.Explain(question, chunkID)
		if err != nil {
			return "", err
		}
		return e.String(), nil
	}
	return "", nil
}
