package bm25

import (
	"fmt"
	"github.com/linemem/linemem/lib/tokenize"

	"github.com/linemem/linemem/lib/ranking"
)

// Explanation is ranking.Explanation.
//
// Deprecated: use ranking.Explanation.
type Explanation = ranking.Explanation

// Explain breaks the score of document docID for query into one child per
// query token (repeats included, in query order). Each child is
// IDF · tf-factor with children IDF (with N and df), the term frequency
// f(t,d) and the length norm k1·(1 − b + b·|d|/avgdl). A token absent from
// the index or the document contributes 0 and says so. The root's Value equals
// the score Search reports. An unknown docID gives a root with Value 0 and a
// message saying the document is not indexed.
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
	root := ranking.Explanation{Message: fmt.Sprintf("BM25 score of %s: sum over %d query tokens (%s tokenizer)", docID, len(tokens), ix.tok.Name())}
	for _, t := range tokens {
		child := ix.explainTerm(t, int32(d))
		root.Value += child.Value
		root.Children = append(root.Children, child)
	}
	return root
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
