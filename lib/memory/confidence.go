package memory

import (
	"sort"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize"
)

// DefaultMinConfidence is the confidence below which an everyday search
// says the history may not hold the answer and `ask` abstains. Chosen by
// measurement (`linemem analyzers abstain`, README "When nothing is
// found"): the threshold that minimises the mean of the two error rates
// (answerable questions flagged, unanswerable ones not flagged) over
// LoCoMo's adversarial questions, questions of one chat asked against the
// others, and the mixed history's own unanswerable questions.
const DefaultMinConfidence = 0.49

// ConfidenceOf is how much of the question the top window holds, in the
// index that ranked it (so in its summary for embedding_text_bm25): the
// share of the question's distinct terms, each weighted by its BM25 IDF
// over the index, that the document topID contains,
//
//	C = Σ_{t ∈ Q ∩ T(top)} idf(t) / Σ_{t ∈ Q} idf(t),  idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)),
//
// in [0, 1]. A question term found nowhere in the history has the largest
// IDF, so a question about something never written lowers C most. C is 0
// for a question without terms or a document not in the index. Search
// passes the question's content (ParseQuestion): question words do not
// count.
func ConfidenceOf(ix *bm25.Index, tok tokenize.Tokenizer, question, topID string) float64 {
	q := map[string]bool{}
	var terms []string
	for _, t := range tok.Tokens(question) {
		if !q[t] {
			q[t] = true
			terms = append(terms, t)
		}
	}
	sort.Strings(terms) // a fixed order of the sums
	if len(terms) == 0 {
		return 0
	}
	in := ix.Holds(topID, terms)
	var held, all float64
	for i, t := range terms {
		idf := bm25.IDF(ix.Len(), ix.DocFreq(t))
		all += idf
		if in[i] {
			held += idf
		}
	}
	if all == 0 {
		return 0
	}
	return held / all
}

// MissingWords returns the words of question, as written, none of whose
// terms under tok occurs in any document of ix (document frequency 0), in
// question order; touching or overlapping terms (the bigrams of one word)
// form one word. With a tokenizer that does not locate its terms, the
// missing terms themselves.
func MissingWords(ix *bm25.Index, tok tokenize.Tokenizer, question string) []string {
	loc, ok := tok.(locator)
	if !ok {
		var out []string
		seen := map[string]bool{}
		for _, t := range tok.Tokens(question) {
			if !seen[t] && ix.DocFreq(t) == 0 {
				seen[t] = true
				out = append(out, t)
			}
		}
		return out
	}
	var spans []Span
	for _, t := range loc.Terms(question) {
		if ix.DocFreq(t.Text) != 0 {
			continue
		}
		if n := len(spans); n > 0 && t.Start <= spans[n-1].End {
			spans[n-1].End = max(spans[n-1].End, t.End)
			continue
		}
		spans = append(spans, Span{t.Start, t.End})
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range spans {
		if w := question[s.Start:s.End]; !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
