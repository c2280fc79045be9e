package retrieval

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/trec"
)

// Multi is the prefix of multi-query retriever names:
// "multi:{expander}:{base}", e.g. "multi:rm3:embedding_text_bm25" or
// "multi:phrases:hybrid:embedding_text_bm25+embedding_text_vector@0.40".
// The base is a single or fused retriever (no remedy, no other multi); a
// remedy may wrap a multi-query retriever ("mmr:multi:rm3:…@0.90").
const Multi = "multi"

// MultiRRFK is the rank constant of the multi-query merge.
const MultiRRFK = 60

func multiName(s Spec) string {
	base := s
	base.Expander = ""
	return Multi + ":" + s.Expander + ":" + base.String()
}

func parseMulti(name, rest string) (Spec, error) {
	exp, base, ok := strings.Cut(rest, ":")
	if !ok || !slices.Contains(expand.Names, exp) {
		return Spec{}, fmt.Errorf("retriever %q: expected %s:{expander}:{retriever}, expander one of %s", name, Multi, strings.Join(expand.Names, ", "))
	}
	if k, _, ok := strings.Cut(base, ":"); ok && (k == RemedyMMR || k == RemedyPeriod || k == Multi) {
		return Spec{}, fmt.Errorf("retriever %q: the base of %s must be a single or fused retriever, got %q", name, Multi, base)
	}
	spec, err := ParseName(base)
	if err != nil {
		return Spec{}, fmt.Errorf("retriever %q: %w", name, err)
	}
	spec.Expander = exp
	return spec, nil
}

// MergeSubQueries merges the question's ranking with its m sub-queries'
// rankings (each best first; the top fusion.Depth of each count, a repeated
// chunk's first entry only) by reciprocal rank fusion in which the question
// weighs as much as all sub-queries together:
//
//	score(d) = 1/(K + r_0(d)) + (1/m) · Σ_{i=1..m} 1/(K + r_i(d))
//
// K = MultiRRFK, ranks from 1, a list without d adding 0. The result is the
// union ordered by score desc, then chunk ID desc (lib/fusion's tie rule).
// With m = 0 it is the question's ranking, rescored.
func MergeSubQueries(question []trec.Hit, subs [][]trec.Hit) []trec.Hit {
	score := map[string]float64{}
	add := func(hits []trec.Hit, w float64) {
		seen := map[string]bool{}
		for i, h := range hits[:min(len(hits), fusion.Depth)] {
			if seen[h.ChunkID] {
				continue
			}
			seen[h.ChunkID] = true
			score[h.ChunkID] += w / float64(MultiRRFK+i+1)
		}
	}
	add(question, 1)
	for _, s := range subs {
		add(s, 1/float64(len(subs)))
	}
	out := make([]trec.Hit, 0, len(score))
	for id, s := range score {
		out = append(out, trec.Hit{ChunkID: id, Score: s})
	}
	slices.SortFunc(out, func(a, b trec.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(b.ChunkID, a.ChunkID)
	})
	return out
}

// MultiQuery runs a base retriever on a question and on its sub-queries
// (Expander) and merges the rankings with MergeSubQueries. Each search
// keeps the base's top fusion.Depth, so unlike a Reranked retriever its
// candidates can include chunks the question alone never reaches. A vector
// component needs a query vector for every sub-query: the Builder's
// VectorSource must supply vectors for texts that are not questions (see
// FoldIn).
type MultiQuery struct {
	name     string
	Base     Retriever
	Expander expand.QueryExpander
}

// Name returns the canonical name, e.g. "multi:rm3:embedding_text_bm25".
func (r *MultiQuery) Name() string { return r.name }

// Search implements Retriever.
func (r *MultiQuery) Search(query string, k int) ([]trec.Hit, error) {
	out, err := r.SearchBatch([]string{query}, k)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// SearchBatch expands every query, searches the questions and all
// sub-queries in one batch of the base, and merges per question.
func (r *MultiQuery) SearchBatch(queries []string, k int) ([][]trec.Hit, error) {
	subs, err := r.SubQueries(queries)
	if err != nil {
		return nil, err
	}
	texts := append([]string(nil), queries...)
	for _, s := range subs {
		texts = append(texts, s...)
	}
	lists, err := SearchAll(r.Base, texts, fusion.Depth)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	out := make([][]trec.Hit, len(queries))
	next := len(queries)
	for i := range queries {
		out[i] = cut(MergeSubQueries(lists[i], lists[next:next+len(subs[i])]), k)
		next += len(subs[i])
	}
	return out, nil
}

// SubQueries returns each query's sub-queries.
func (r *MultiQuery) SubQueries(queries []string) ([][]string, error) {
	subs := make([][]string, len(queries))
	for i, q := range queries {
		s, err := r.Expander.Expand(context.Background(), q)
		if err != nil {
			return nil, err
		}
		subs[i] = s
	}
	return subs, nil
}

// SetExpander makes e the expander that "multi:{e.Name()}:…" retrievers use,
// replacing a built-in one. expand.NameLLM has no built-in: its Decomposer
// needs a generator and a cache, which the caller sets here.
func (b *Builder) SetExpander(e expand.QueryExpander) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expand == nil {
		b.expand = map[string]expand.QueryExpander{}
	}
	b.expand[e.Name()] = e
}

// Expander returns the expander called name: one set with SetExpander, or
// the built-in RM3 (first pass: BM25 over embedding_text with the Builder's
// tokenizer, which also tokenizes the feedback; document frequencies from
// that index) or Phrases (kagome).
func (b *Builder) Expander(name string) (expand.QueryExpander, error) {
	b.mu.Lock()
	e, ok := b.expand[name]
	b.mu.Unlock()
	if ok {
		return e, nil
	}
	switch name {
	case expand.NameRM3:
		first, err := b.bm25(Single{represent.EmbeddingTextRep, MethodBM25})
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		texts, err := b.textsLocked(represent.EmbeddingTextRep)
		chunks := b.corpus.Chunks
		b.mu.Unlock()
		if err != nil {
			return nil, err
		}
		byID := make(map[string]string, len(texts))
		for i, c := range chunks {
			byID[c.ID] = texts[i]
		}
		rm3 := expand.NewRM3(first, first.Index.Tokenizer(), func(id string) (string, bool) { t, ok := byID[id]; return t, ok })
		rm3.DocFreq = func(t string) (int, int) { return first.Index.DocFreq(t), first.Index.Len() }
		e = rm3
	case expand.NamePhrases:
		tok, err := kagome.New()
		if err != nil {
			return nil, err
		}
		e = expand.Phrases{Source: tok}
	default:
		return nil, fmt.Errorf("%s:%s: no expander set; the %s expander needs a decomposer (see `linemem decompose`)", Multi, name, name)
	}
	b.SetExpander(e)
	return e, nil
}

func (b *Builder) multi(s Spec) (Retriever, error) {
	base := s
	base.Expander = ""
	r, err := b.BuildSpec(base)
	if err != nil {
		return nil, err
	}
	e, err := b.Expander(s.Expander)
	if err != nil {
		return nil, err
	}
	return &MultiQuery{name: s.String(), Base: r, Expander: e}, nil
}

// FoldIn is a VectorSource whose QueryVector answers for any text under
// Model: the stored vector when there is one, else Embed(text) (a local
// model folding the text in, e.g. lib/provider/lsa's Model.Vector). Other
// models are looked up only. It lets vector components of a multi-query
// retriever search sub-queries that were never embedded ahead of time.
type FoldIn struct {
	VectorSource
	Model string
	Embed func(text string) []float32
}

// QueryVector implements VectorSource.
func (f FoldIn) QueryVector(model, text string) ([]float32, bool, error) {
	v, ok, err := f.VectorSource.QueryVector(model, text)
	if err != nil || ok || model != f.Model {
		return v, ok, err
	}
	return f.Embed(text), true, nil
}
