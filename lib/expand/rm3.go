package expand

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
)

// RM3 defaults: Anserini's (Lin et al.) fbDocs, fbTerms and
// originalQueryWeight.
const (
	DefaultFeedbackDocs   = 10  // m, first-pass chunks used as feedback
	DefaultFeedbackTerms  = 10  // T, terms kept from the relevance model
	DefaultOriginalWeight = 0.5 // λ, weight of the question's own terms
	// MaxFeedbackDF is the largest share of the corpus's chunks a feedback
	// term may occur in: a term in more of them (embedding_text's fixed
	// prefix, speaker names of every chat) is a corpus stopword.
	MaxFeedbackDF = 0.1
)

// Searcher is a first-pass retriever (lib/retrieval's Retriever satisfies
// it).
type Searcher interface {
	Search(query string, k int) ([]trec.Hit, error)
}

// RM3 is pseudo-relevance feedback by relevance model 3. For a question q
// with tokens (under Tokenizer) and the first pass's top m hits F with
// scores s_d:
//
//	w_d      = s_d / Σ_{d'∈F} s_d'            (1/|F| when every s_d = 0)
//	P(t|R)   = Σ_{d∈F} w_d · c(t, d) / |d|   (RM1; |d| = tokens of d, a
//	                                          document without tokens adds 0)
//	           over feedback terms t only: t has a letter (no numbers or
//	           dates) and, when DocFreq is set, df(t) ≤ MaxFeedbackDF · N
//	           (corpus stopwords out, as stoplists do in Anserini and Indri)
//	P̂(t|R)   = P(t|R) over the T largest, renormalised to sum 1
//	P(t|q)   = c(t, q) / |q|
//	P'(t)    = λ · P(t|q) + (1 − λ) · P̂(t|R)
//
// Ties among terms break by term (byte order). The one sub-query is the
// terms with P'(t) > 0, by P' descending, joined by spaces: the expanded
// query. Term weights do not reach the second pass except through that
// order and the multi-query merge, which weighs the question's own ranking
// as much as the sub-queries' together: a rank-level rendering of the
// interpolation. A question with no tokens or no feedback hit gets no
// sub-query.
type RM3 struct {
	First     Searcher
	Tokenizer tokenize.Tokenizer
	// Text returns a chunk's text in the first pass's representation.
	Text           func(chunkID string) (string, bool)
	FeedbackDocs   int     // m; DefaultFeedbackDocs when 0
	FeedbackTerms  int     // T; DefaultFeedbackTerms when 0
	OriginalWeight float64 // λ in [0, 1]; used as given (DefaultOriginalWeight is 0.5)
	// DocFreq, when set, returns a term's document frequency and the
	// number of documents N of the first pass's index.
	DocFreq func(term string) (df, n int)

	tokens sync.Map // chunk ID → []string
}

// NewRM3 returns RM3 with the defaults.
func NewRM3(first Searcher, tok tokenize.Tokenizer, text func(string) (string, bool)) *RM3 {
	return &RM3{First: first, Tokenizer: tok, Text: text, FeedbackDocs: DefaultFeedbackDocs, FeedbackTerms: DefaultFeedbackTerms, OriginalWeight: DefaultOriginalWeight}
}

// Name returns NameRM3.
func (*RM3) Name() string { return NameRM3 }

// TermWeight is a term of the expanded query with its weight P'(t).
type TermWeight struct {
	Term   string
	Weight float64
}

// Weights returns P'(t) for every term with a positive weight, by weight
// descending then term.
func (r *RM3) Weights(query string) ([]TermWeight, error) {
	if r.OriginalWeight < 0 || r.OriginalWeight > 1 {
		return nil, fmt.Errorf("rm3: original-query weight %v outside [0, 1]", r.OriginalWeight)
	}
	qtok := r.Tokenizer.Tokens(query)
	if len(qtok) == 0 {
		return nil, nil
	}
	m := r.FeedbackDocs
	if m <= 0 {
		m = DefaultFeedbackDocs
	}
	hits, err := r.First.Search(query, m)
	if err != nil {
		return nil, fmt.Errorf("rm3: first pass: %w", err)
	}
	if len(hits) == 0 {
		return nil, nil
	}
	total := 0.0
	for _, h := range hits {
		total += h.Score
	}
	rel := map[string]float64{}
	for _, h := range hits {
		w := 1 / float64(len(hits))
		if total > 0 {
			w = h.Score / total
		}
		toks := r.docTokens(h.ChunkID)
		if len(toks) == 0 {
			continue
		}
		for _, t := range toks {
			if r.feedbackTerm(t) {
				rel[t] += w / float64(len(toks))
			}
		}
	}
	top := sortWeights(rel)
	keep := r.FeedbackTerms
	if keep <= 0 {
		keep = DefaultFeedbackTerms
	}
	top = top[:min(keep, len(top))]
	norm := 0.0
	for _, tw := range top {
		norm += tw.Weight
	}
	mixed := map[string]float64{}
	for _, t := range qtok {
		mixed[t] += r.OriginalWeight / float64(len(qtok))
	}
	if norm > 0 {
		for _, tw := range top {
			mixed[tw.Term] += (1 - r.OriginalWeight) * tw.Weight / norm
		}
	}
	out := sortWeights(mixed)
	return slices.DeleteFunc(out, func(tw TermWeight) bool { return tw.Weight <= 0 }), nil
}

// Expand returns the expanded query (see RM3), or nil.
func (r *RM3) Expand(_ context.Context, query string) ([]string, error) {
	ws, err := r.Weights(query)
	if err != nil || len(ws) == 0 {
		return nil, err
	}
	terms := make([]string, len(ws))
	for i, tw := range ws {
		terms[i] = tw.Term
	}
	return []string{strings.Join(terms, " ")}, nil
}

func (r *RM3) feedbackTerm(t string) bool {
	if !strings.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	if r.DocFreq == nil {
		return true
	}
	df, n := r.DocFreq(t)
	return float64(df) <= MaxFeedbackDF*float64(n)
}

func (r *RM3) docTokens(id string) []string {
	if v, ok := r.tokens.Load(id); ok {
		return v.([]string)
	}
	text, ok := r.Text(id)
	if !ok {
		return nil
	}
	toks := r.Tokenizer.Tokens(text)
	r.tokens.Store(id, toks)
	return toks
}

func sortWeights(m map[string]float64) []TermWeight {
	out := make([]TermWeight, 0, len(m))
	for t, w := range m {
		out = append(out, TermWeight{t, w})
	}
	slices.SortFunc(out, func(a, b TermWeight) int {
		switch {
		case a.Weight > b.Weight:
			return -1
		case a.Weight < b.Weight:
			return 1
		}
		return strings.Compare(a.Term, b.Term)
	})
	return out
}
