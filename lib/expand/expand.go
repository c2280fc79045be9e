// Package expand turns one question into sub-queries whose rankings a
// multi-query retriever (lib/retrieval, "multi:{expander}:{base}") merges
// with the question's own ranking. Unlike a reranker it changes the candidate
// set: a sub-query can reach chunks the question alone never scores.
//
// Three expanders, each behind QueryExpander:
//
//   - RM3 (NameRM3): pseudo-relevance feedback, relevance model 3 of
//     Abdul-Jaleel et al. (2004) over the top m chunks of a first-pass
//     retriever; one sub-query, the expanded query's top terms (see RM3).
//   - Phrases (NamePhrases): content-word sub-queries from kagome's
//     morphological analysis, the question's first phrase paired with each
//     other phrase (see Phrases).
//   - Decomposer (NameLLM): an LLM asked, with a versioned Japanese prompt
//     (PromptVersion), to split the question into aspect sub-queries, as paper
//     §7.3 proposes ("scheduling, requests, hands-on work, consultation, and
//     reporting of outcomes"); answers are cached with provenance in
//     lib/provider/cache, so each question is sent once.
//
// It imports lib/tokenize, lib/trec and lib/provider (cache, the Summarizer
// interface); never lib/retrieval, which imports it.
package expand

import "context"

// Expander names, the middle part of "multi:{expander}:{base}".
const (
	NameRM3     = "rm3"
	NamePhrases = "phrases"
	NameLLM     = "llm"
)

// Names lists the expanders in table order.
var Names = []string{NameRM3, NamePhrases, NameLLM}

// QueryExpander returns the sub-queries of a question, without the question
// itself. No sub-queries (nil) is a valid answer: the multi-query retriever
// then ranks by the question alone.
type QueryExpander interface {
	Name() string
	Expand(ctx context.Context, query string) ([]string, error)
}
