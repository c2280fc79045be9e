package bm25

import (
	"fmt"
	"strings"

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
	var (
		terms   []string
		repeats = map[string]int{}
		one     = map[string]ranking.Explanation{}
	)
	root := ranking.Explanation{}
	for _, t := range tokens {
		if repeats[t] == 0 {
			terms = append(terms, t)
			one[t] = ix.explainTerm(t, int32(d))
		}
		repeats[t]++
		root.Value += one[t].Value
	}
	root.Message = fmt.Sprintf("BM25 score of %s: sum over %d query tokens (%s tokenizer)", docID, len(tokens), ix.tok.Name())
	if len(terms) < len(tokens) {
		root.Message = fmt.Sprintf("BM25 score of %s: sum over %d query tokens, %d distinct terms, each repeated as often as the tokenizer weighs it (%s tokenizer)", docID, len(tokens), len(terms), ix.tok.Name())
	}
	for _, t := range terms {
		root.Children = append(root.Children, repeated(one[t], t, tokenize.FieldName(ix.tok, t), repeats[t]))
	}
	return root
}

// repeated turns the explanation e of one occurrence of term into that of
// its k occurrences in a query, naming its field when field is not "": the
// value k · e.Value (summed k times, as Search sums), the message with
// "(field) ×k" after the quoted term, the children as they are.
func repeated(e ranking.Explanation, term, field string, k int) ranking.Explanation {
	if field == "" && k == 1 {
		return e
	}
	label := fmt.Sprintf("term %q", term)
	tag := label
	if field != "" {
		tag += " (" + field + ")"
	}
	if k > 1 {
		tag += fmt.Sprintf(" ×%d", k)
	}
	v := 0.0
	for range k {
		v += e.Value
	}
	msg := strings.Replace(e.Message, label, tag, 1)
	if k > 1 && e.Value > 0 {
		msg = strings.Replace(msg, ": IDF", fmt.Sprintf(": %d · IDF", k), 1)
	}
	return ranking.Explanation{Value: v, Message: msg, Children: e.Children}
}

func (ix *Index) explainTerm(term string, d int32) ranking.Explanation {
	list := ix.postingsOf(term)
	if list == nil {
		return ranking.Explanation{Message: fmt.Sprintf("term %q: in no document", term)}
	}
	var tf int32
	for _, p := range list {
		if p.doc == d {
			tf = p.tf
			break
		}
	}
	if tf == 0 {
		return ranking.Explanation{Message: fmt.Sprintf("term %q: not in this document", term)}
	}
	n, df := len(ix.docs), len(list)
	idf := IDF(n, df)
	norm := ix.lenNorm[d]
	f := float64(tf)
	return ranking.Explanation{
		Value:   ix.termScore(idf, tf, norm),
		Message: fmt.Sprintf("term %q: IDF · f·(K1+1)/(f + length norm)", term),
		Children: []ranking.Explanation{
			{Value: idf, Message: fmt.Sprintf("IDF = ln(1 + (N − df + 0.5)/(df + 0.5)), N = %d, df = %d", n, df)},
			{Value: f, Message: "f(t,d), occurrences in the document"},
			{Value: norm, Message: fmt.Sprintf("length norm = K1·(1 − B + B·|d|/avgdl), K1 = %g, B = %g, |d| = %d, avgdl = %.4f", ix.params.K1, ix.params.B, ix.lengths[d], ix.avgdl)},
			{Value: f * (ix.params.K1 + 1) / (f + norm), Message: "tf factor = f·(K1+1)/(f + length norm)"},
		},
	}
}
