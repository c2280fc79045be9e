package main

import (
	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// setStoredDecomposer lets multi:llm:… retrievers of b read the sub-queries
// `linemem decompose` stored in st (default model, current prompt). It never
// sends anything: a question without a stored answer is an error naming the
// command to run.
func setStoredDecomposer(b *retrieval.Builder, st *store.Store) error {
	cc, err := cache.Open(st.DB())
	if err != nil {
		return err
	}
	gen, err := expand.NewOpenAIGenerator(openai.Config{})
	if err != nil {
		return err
	}
	b.SetExpander(&expand.Decomposer{Gen: gen, Cache: cc, Offline: true})
	return nil
}
