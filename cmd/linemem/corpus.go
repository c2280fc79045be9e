package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// corpusOptions are the flags shared by commands that build retrievers.
type corpusOptions struct {
	tokenizer  string
	embedModel string
}

// openBuilder loads the corpus of st and returns a retriever builder over it.
// When no embedding model is named and exactly one is stored, that one is used.
func openBuilder(st *store.Store, opts corpusOptions, needVectors bool) (*retrieval.Builder, string, error) {
	return openBuilderWith(st, st, opts, needVectors)
}

// openBuilderWith is openBuilder with vectors from vs.
func openBuilderWith(st *store.Store, vs retrieval.VectorSource, opts corpusOptions, needVectors bool) (*retrieval.Builder, string, error) {
	chunks, err := st.Chunks()
	if err != nil {
		return nil, "", err
	}
	if len(chunks) == 0 {
		return nil, "", fmt.Errorf("%s holds no chunks: run `linemem ingest` first", st.Path())
	}
	sums, err := st.Summaries()
	if err != nil {
		return nil, "", err
	}
	model := opts.embedModel
	if model == "" && needVectors {
		if model, err = soleEmbedModel(st); err != nil {
			return nil, "", err
		}
	}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, vs, retrieval.Options{Tokenizer: opts.tokenizer, EmbedModel: model})
	return b, model, nil
}

// soleEmbedModel returns the one model that chunk vectors are stored for.
func soleEmbedModel(st *store.Store) (string, error) {
	stats, err := st.Stats()
	if err != nil {
		return "", err
	}
	seen := map[string]bool{}
	for _, set := range stats.VectorSets {
		seen[set.Model] = true
	}
	models := make([]string, 0, len(seen))
	for m := range seen {
		models = append(models, m)
	}
	sort.Strings(models)
	switch len(models) {
	case 0:
		return "", fmt.Errorf("%s holds no chunk vectors: run `linemem vectors import` or `linemem embed` first", st.Path())
	case 1:
		return models[0], nil
	}
	return "", fmt.Errorf("%s holds vectors of several models (%s): pass --embed-model", st.Path(), strings.Join(models, ", "))
}

// specsNeedVectors reports whether any retriever searches vectors.
func specsNeedVectors(specs []retrieval.Spec) bool {
	for _, s := range specs {
		if s.NeedsVectors() {
			return true
		}
	}
	return false
}

// needsVectors reports whether any named retriever searches vectors; for
// callers that hold names only.
func needsVectors(names []string) (bool, error) {
	specs, err := retrieval.ParseNames(names)
	if err != nil {
		return false, err
	}
	return specsNeedVectors(specs), nil
}
