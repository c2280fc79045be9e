package retrieval

import (
	"fmt"

	"github.com/linemem/linemem/lib/diversify"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/hierarchy"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
)

// Reranked is a remedy applied to a base retriever: it reorders the base's
// top fusion.Depth for each question (RemedyMMR: lib/diversify.MMR over
// sources; RemedyPeriod: lib/hierarchy's source-month unit fusion). Its
// candidates are the base's, so its Recall@fusion.Depth equals the base's.
type Reranked struct {
	name   string
	Base   Retriever
	rerank func(query string, hits []ranking.Hit) ([]ranking.Hit, error)
}

// Name returns the canonical name, e.g.
// "mmr:hybrid:embedding_text_bm25+embedding_text_vector@0.40@0.80".
func (r *Reranked) Name() string { return r.name }

// Search implements Retriever: the base's top fusion.Depth, reordered, cut to
// k (all of them when k ≤ 0).
func (r *Reranked) Search(query string, k int) ([]ranking.Hit, error) {
	hits, err := r.Base.Search(query, fusion.Depth)
	if err != nil {
		return nil, err
	}
	out, err := r.rerank(query, hits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	return cut(out, k), nil
}

// SearchBatch is Search for many queries, with the base searched in a batch.
func (r *Reranked) SearchBatch(queries []string, k int) ([][]ranking.Hit, error) {
	lists, err := SearchAll(r.Base, queries, fusion.Depth)
	if err != nil {
		return nil, err
	}
	out := make([][]ranking.Hit, len(queries))
	for i, q := range queries {
		hits, err := r.rerank(q, lists[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		out[i] = cut(hits, k)
	}
	return out, nil
}

func (b *Builder) remedy(s Spec) (Retriever, error) {
	base, err := b.BuildSpec(s.Base())
	if err != nil {
		return nil, err
	}
	r := &Reranked{name: s.String(), Base: base}
	switch s.Remedy {
	case RemedyMMR:
		g, err := b.sourceGroups()
		if err != nil {
			return nil, err
		}
		r.rerank = func(_ string, hits []ranking.Hit) ([]ranking.Hit, error) { return diversify.MMR(hits, s.Weight, g) }
	case RemedyPeriod:
		ix, err := b.periods()
		if err != nil {
			return nil, err
		}
		r.rerank = func(query string, hits []ranking.Hit) ([]ranking.Hit, error) {
			return ix.Fuse(hits, ix.Search(query, 0), s.Weight)
		}
	default:
		return nil, fmt.Errorf("retriever %q: unknown remedy %q; expected %s or %s", s.String(), s.Remedy, RemedyMMR, RemedyPeriod)
	}
	return r, nil
}

func (b *Builder) sourceGroups() (diversify.Group, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.groups == nil {
		c, err := b.corpusLocked()
		if err != nil {
			return nil, err
		}
		b.groups = diversify.BySource(c.Chunks)
	}
	return b.groups, nil
}

func (b *Builder) periods() (*hierarchy.Index, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.units == nil {
		tok, err := tokenize.New(b.opts.Tokenizer)
		if err != nil {
			return nil, err
		}
		c, err := b.corpusLocked()
		if err != nil {
			return nil, err
		}
		b.units = hierarchy.Build(c.Chunks, c.Summaries, tok)
	}
	return b.units, nil
}

// cut keeps the top k of a reordered list (all of it when k ≤ 0).
func cut(hits []ranking.Hit, k int) []ranking.Hit {
	if k > 0 && len(hits) > k {
		return hits[:k]
	}
	return hits
}
