package memory

import (
	"fmt"

	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// Explain breaks the score Search gave result r for question into its parts
// (the BM25 terms, or a fusion's weighted components) when the retriever is
// a retrieval.Explainer: a tree whose root's Value is r.Score (without
// passage re-ranking, λ = 0, the everyday default). When the answer-type
// prior added to it (r.TypeBonus, TypeRerank), the root is their sum, with
// the retriever's tree and the bonus as its children. ok is false for a
// retriever that is no Explainer (a plain cosine). The retriever explains
// the text Search ranks by: under the everyday tokenizer a BM25 retriever is
// asked the question without its question words (ParseQuestion), any other
// the question as typed.
func (m *Memory) Explain(question string, r Result) (e ranking.Explanation, ok bool, err error) {
	ex, ok := m.retriever.(retrieval.Explainer)
	if !ok {
		return ranking.Explanation{}, false, nil
	}
	e, err = ex.Explain(m.rankedText(question), r.ChunkID)
	if err != nil {
		return ranking.Explanation{}, false, err
	}
	if r.TypeBonus == 0 {
		return e, true, nil
	}
	prior := ranking.Explanation{Value: r.TypeBonus, Message: fmt.Sprintf("answer-type prior: a message carries the %s the question asks for; μ = %g × the best score of the first %d windows", askedThing(ParseQuestion(question)), m.mu, TypeDepth)}
	return ranking.Explanation{Value: e.Value + r.TypeBonus, Message: "score + answer-type prior", Children: []ranking.Explanation{e, prior}}, true, nil
}

// askedThing names what a Typed question asks for.
func askedThing(q Question) string {
	if q.Asks == AsksHowMuch {
		return "amount"
	}
	return "time of day"
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
