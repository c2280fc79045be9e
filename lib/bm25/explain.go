package bm25

import (
	"fmt"

	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
)

// Explanation is ranking.Explanation.
//
// Deprecated: use ranking.Explanation.
type Explanation = ranking.Explanation

// Explain breaks the score of document docID for query into one child per
// distinct query term, in the order of first appearance. A tokenizer may
// repeat a term in a query (tokenize.QueryTokens: the everyday analyzer
// repeats each by its field's weight); a term k times in the query is one
// child of value k · IDF · tf-factor that says so, and names the term's
// field (tokenize.FieldName). Each child's children are IDF (with N and
// df), the term frequency f(t,d), the length norm k1·(1 − b + b·|d|/avgdl)
// and the tf factor of one occurrence. A term absent from the index or
// the document contributes 0 and says so. The root's Value is summed over
// the query tokens in query order, as Search sums, so it equals the score
// Search reports. An unknown docID gives a root with Value 0 and a message
// saying the document is not indexed.
func (ix *Index) Explain(query, docID string) ranking.Explanation {
	d := -1
	for i := range ix.docs {
		if ix.docs[i].ID == docID {
			d = i
			break
		}
	}
	if d < 0 {
		return ranking.Explanation{Message: fmt.Sprintf("document %s is not in the index", docID)}
	}
	tokens := tokenize.QueryTokens(ix.tok, query)
	var terms []string
	repeats := map[string]int{}
	for _, t := range tokens {
		if repeats[t] == 0 {
			terms = append(terms, t)
		}
		repeats[t]++
	}
	root := ranking.Explanation{Message: fmt.Sprintf("BM25 score of %s: sum over %d query tokens (%s tokenizer)", docID, len(tokens), ix.tok.Name())}
	if len(terms) < len(tokens) {
		root.Message = fmt.Sprintf("BM25 score of %s: sum over %d query tokens, %d distinct terms, each repeated as often as the tokenizer weighs it (%s tokenizer)", docID, len(tokens), len(terms), ix.tok.Name())
	}
	once := map[string]float64{} // a term's score for one occurrence
	for _, t := range terms {
		v, child := ix.explainTerm(t, tokenize.FieldName(ix.tok, t), repeats[t], int32(d))
		once[t] = v
		root.Children = append(root.Children, child)
	}
	for _, t := range tokens {
		root.Value += once[t]
	}
	return root
}

// explainTerm explains term, k times in the query, in document d: the score
// of one occurrence, and the child whose value is that score summed k times
// (as Search sums) and whose message names the term, its field when field
// is not "" and its repeats when k > 1 (`term "r:カギ" (reading bigram)
// ×2: 2 · IDF · …`), with one occurrence's parts as its children.
func (ix *Index) explainTerm(term, field string, k int, d int32) (float64, ranking.Explanation) {
	label := fmt.Sprintf("term %q", term)
	if field != "" {
		label += " (" + field + ")"
	}
	times := ""
	if k > 1 {
		label += fmt.Sprintf(" ×%d", k)
		times = fmt.Sprintf("%d · ", k)
	}
	list := ix.postingsOf(term)
	if list == nil {
		return 0, ranking.Explanation{Message: label + ": in no document"}
	}
	var tf int32
	for _, p := range list {
		if p.doc == d {
			tf = p.tf
			break
		}
	}
	if tf == 0 {
		return 0, ranking.Explanation{Message: label + ": not in this document"}
	}
	n, df := len(ix.docs), len(list)
	idf := IDF(n, df)
	norm := ix.lenNorm[d]
	f := float64(tf)
	one := ix.termScore(idf, tf, norm)
	v := 0.0
	for range k {
		v += one
	}
	return one, ranking.Explanation{
		Value:   v,
		Message: label + ": " + times + "IDF · f·(K1+1)/(f + length norm)",
		Children: []ranking.Explanation{
			{Value: idf, Message: fmt.Sprintf("IDF = ln(1 + (N − df + 0.5)/(df + 0.5)), N = %d, df = %d", n, df)},
			{Value: f, Message: "f(t,d), occurrences in the document"},
			{Value: norm, Message: fmt.Sprintf("length norm = K1·(1 − B + B·|d|/avgdl), K1 = %g, B = %g, |d| = %d, avgdl = %.4f", ix.params.K1, ix.params.B, ix.lengths[d], ix.avgdl)},
			{Value: f * (ix.params.K1 + 1) / (f + norm), Message: "tf factor = f·(K1+1)/(f + length norm)"},
		},
	}
}
