package main

import (
	"fmt"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// corpusOptions are the flags shared by commands that build retrievers.
type corpusOptions struct {
	tokenizer  string
	embedModel string
}

// openBuilder returns a retriever builder over the corpus of st, which it
// reads only when an index or matrix in the store's derived folder is not
// current. When no embedding model is named and exactly one is stored, that
// one is used.
func openBuilder(st *store.Store, opts corpusOptions, needVectors bool) (*retrieval.Builder, string, error) {
	return openBuilderWith(st, st, opts, needVectors)
}

// openBuilderWith is openBuilder with query vectors from vs.
func openBuilderWith(st *store.Store, vs retrieval.VectorSource, opts corpusOptions, needVectors bool) (*retrieval.Builder, string, error) {
	chunks, _, err := st.Counts()
	if err != nil {
		return nil, "", err
	}
	if chunks == 0 {
		return nil, "", fmt.Errorf("%s holds no chunks: run `linemem ingest` first", st.Path())
	}
	model := opts.embedModel
	if model == "" && needVectors {
		if model, err = memory.SoleEmbedModel(st); err != nil {
			return nil, "", err
		}
	}
	b := retrieval.NewStoreBuilder(st, vs, retrieval.Options{Tokenizer: opts.tokenizer, EmbedModel: model})
	return b, model, setStoredDecomposer(b, st)
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
