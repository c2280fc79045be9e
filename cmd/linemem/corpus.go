package main

import (
	"fmt"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
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
		if model, err = memory.SoleEmbedModel(st); err != nil {
			return nil, "", err
		}
	}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, vs, retrieval.Options{Tokenizer: opts.tokenizer, EmbedModel: model})
	return b, model, nil
}

// needsVectors reports whether any named retriever searches vectors.
func needsVectors(names []string) (bool, error) {
	for _, n := range names {
		s, err := retrieval.ParseName(n)
		if err != nil {
			return false, err
		}
		if s.Fusion != "" || s.Single.Method == retrieval.MethodVector {
			return true, nil
		}
	}
	return false, nil
}

// tokenizerName is the BM25 tokenizer a flag value selects, for the record.
func tokenizerName(flag string) string {
	if flag == "" {
		return tokenize.Default
	}
	return flag
}
