package answer

import (
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/memory"
)

// neighbourWeight is how much a question term counts when a neighbour of
// the message holds it and the message does not.
const neighbourWeight = 0.5

// coverageAnswer is MethodCoverage. Documents are the distinct non-empty
// messages of the windows (a message in two windows counts once, under the
// better-ranked one); Q is the question's distinct terms, idf(t) their BM25
// IDF over those messages. A message m with neighbours m−1 and m+1 in its
// window scores
//
//	s(m) = Σ_{t ∈ Q ∩ T(m)} idf(t) + ½ · Σ_{t ∈ Q ∩ (T(m−1) ∪ T(m+1)) \ T(m)} idf(t),
//
// the question-term coverage of the message and, at half weight, of its
// neighbours: in chat the question's words and the answer are often in
// neighbouring lines. The best message wins (ties: the better-ranked
// window, then the earlier message); the answer quotes it and the message
// after it, cited by the window's number. No message with a question term:
// AbstainPhrase.
func (e *Extractive) coverageAnswer(a Answer, question string, chunks []memory.Result) Answer {
	if len(chunks) > 1 {
		chunks = chunks[:1]
	}
	q := map[string]bool{}
	for _, t := range e.tok.Tokens(question) {
		q[t] = true
	}
	seen := map[string]bool{}
	var docs []bm25.Doc
	terms := make([][]map[string]bool, len(chunks))
	for i, c := range chunks {
		terms[i] = make([]map[string]bool, len(c.Messages))
		for j, m := range c.Messages {
			set := map[string]bool{}
			for _, t := range e.tok.Tokens(m.Text) {
				if q[t] {
					set[t] = true
				}
			}
			terms[i][j] = set
			if !seen[m.ID] && strings.TrimSpace(m.Text) != "" {
				seen[m.ID] = true
				docs = append(docs, bm25.Doc{ID: m.ID, Text: m.Text})
			}
		}
	}
	ix := bm25.New(docs, e.tok)
	idf := func(t string) float64 { return bm25.IDF(ix.Len(), ix.DocFreq(t)) }
	best, bi, bj := 0.0, -1, -1
	counted := map[string]bool{}
	for i, c := range chunks {
		for j, m := range c.Messages {
			if counted[m.ID] || len(terms[i][j]) == 0 {
				continue
			}
			counted[m.ID] = true
			s := 0.0
			for t := range terms[i][j] {
				s += idf(t)
			}
			near := map[string]bool{}
			for _, k := range []int{j - 1, j + 1} {
				if k >= 0 && k < len(c.Messages) {
					for t := range terms[i][k] {
						if !terms[i][j][t] {
							near[t] = true
						}
					}
				}
			}
			for t := range near {
				s += neighbourWeight * idf(t)
			}
			if s > best+1e-12 {
				best, bi, bj = s, i, j
			}
		}
	}
	if bi < 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a
	}
	return quoteOne(a, chunks, bi, bj)
}

// quoteOne answers with message j of window i alone, cited by the window's
// number.
func quoteOne(a Answer, chunks []memory.Result, i, j int) Answer {
	c := chunks[i]
	n := i + 1
	a.Text = strings.ReplaceAll(c.Messages[j].Text, "\n", " ") + " [" + strconv.Itoa(n) + "]"
	a.Citations = []Citation{{N: n, ChunkID: c.ChunkID, MessageIDs: []string{c.Messages[j].ID}}}
	return a
}

// firstMatchAnswer is MethodFirstMatch: the first marked message of the top
// window; AbstainPhrase when it has none.
func firstMatchAnswer(a Answer, chunks []memory.Result) Answer {
	if len(chunks) == 0 || len(chunks[0].Matched) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a
	}
	return quoteOne(a, chunks, 0, chunks[0].Matched[0])
}
