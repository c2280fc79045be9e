package memory

import (
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// Explain breaks the score of chunkID for question into its parts (the BM25
// terms, or a fusion's weighted components) when the retriever is a
// retrieval.Explainer: a tree whose root's Value is the score Search gives
// the chunk (without passage re-ranking, λ = 0, the everyday default).
// ok is false for a retriever that is no Explainer (a plain cosine). The retriever explains the text Search ranks by: under the
// everyday tokenizer a BM25 retriever is asked the question without its
// question words (ParseQuestion), any other the question as typed.
func (m *Memory) Explain(question, chunkID string) (e ranking.Explanation, ok bool, err error) {
	ex, ok := m.retriever.(retrieval.Explainer)
	if !ok {
		return ranking.Explanation{}, false, nil
	}
	e, err = ex.Explain(m.rankedText(question), chunkID)
	if err != nil {
		return ranking.Explanation{}, false, err
	}
	return e, true, nil
}

// rankedText is the text the retriever ranks by for question: its content
// (ParseQuestion) for a BM25 retriever under the everyday tokenizer, the
// question as typed otherwise.
func (m *Memory) rankedText(question string) string {
	if _, lexical := m.retriever.(retrieval.Lexical); lexical && m.everyday {
		return ParseQuestion(question).Content
	}
	return question
}
