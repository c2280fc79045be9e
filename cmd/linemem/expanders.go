package main

import (
	"context"
	"sync"

	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// setStoredDecomposer lets multi:llm:… retrievers of b read the sub-queries
// `linemem decompose` stored in st (default model, current prompt). It never
// sends anything: a question without a stored answer is an error naming the
// command to run. The cache is opened on first use only, so commands that
// open the database read-only and never ask for multi:llm touch nothing.
func setStoredDecomposer(b *retrieval.Builder, st *store.Store) error {
	b.SetExpander(&storedDecomposer{st: st})
	return nil
}

type storedDecomposer struct {
	st   *store.Store
	once sync.Once
	d    *expand.Decomposer
	err  error
}

func (*storedDecomposer) Name() string { return expand.NameLLM }

func (s *storedDecomposer) Expand(ctx context.Context, query string) ([]string, error) {
	s.once.Do(func() {
		cc, err := cache.Open(s.st.DB())
		if err != nil {
			s.err = err
			return
		}
		gen, err := expand.NewOpenAIGenerator(openai.Config{})
		if err != nil {
			s.err = err
			return
		}
		s.d = &expand.Decomposer{Gen: gen, Cache: cc, Offline: true}
	})
	if s.err != nil {
		return nil, s.err
	}
	return s.d.Expand(ctx, query)
}
