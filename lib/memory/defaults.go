package memory

import (
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// DefaultTokenizer is the everyday BM25 tokenizer: the everyday analyzer
// (lib/tokenize/everyday: Lucene's JapaneseAnalyzer model with kagome —
// content morphemes in base form, whole katakana words, a reading field,
// a kanji-bigram fallback field, loanword and spelling keys; English words
// stop-listed and stemmed; numbers, times and dates in one form each).
// Chosen by the rule of lib/analyzers (`linemem analyzers compare`,
// docs/everyday-search.md): never below char-bigram's 95% interval on any
// of the five corpora and the best mean Recall@5 over them (0.823).
// raw_text_bm25 Recall@5: synthetic 0.614 (char-bigram 0.552), LoCoMo
// 0.846 (0.412: bigrams of English letters), RealPersonaChat 0.846
// (0.854), the mixed-language history 1.000 (1.000), the blind development
// set 0.810 (0.655). Its dictionary loads from a fast-loading form
// (lib/tokenize/kagome) in a few tens of milliseconds, so a fresh
// process's first search stays a search's cost; `--tokenizer kagome`
// remains one flag away.
const DefaultTokenizer = everyday.Name

// EverydayTokenizer is the one rule for the tokenizer of an everyday
// command (search, ask, serve, mcp, gold pool): name, or DefaultTokenizer
// when name is "".
func EverydayTokenizer(name string) string { return tokenize.Or(name, DefaultTokenizer) }

// DefaultK is how many results an everyday search shows when the person
// does not say: `search --k`, the web Search page and the MCP server's
// search_memory.
const DefaultK = 5

// DefaultContext is how many messages an everyday search shows before and
// after each marked message when the person does not say (`search
// --context`, the web Search page): an answer is often the reply after the
// question's words (鍋に何を買えばいい? → はくさい と とうふ), or two
// messages on.
const DefaultContext = 2

// TokenizerTableDoc is the measurement behind DefaultTokenizer, for
// `search --help`: the table of docs/everyday-search.md in short.
const TokenizerTableDoc = `raw_text_bm25 Recall@5 / Success@1 (linemem analyzers compare; docs/everyday-search.md):
  tokenizer     synthetic      LoCoMo         RealPersonaChat  mixed history
  everyday      0.614 / 0.460  0.846 / 0.669  0.846 / 0.737    1.000 / 0.889
  char-bigram   0.552 / 0.410  0.412 / 0.203  0.854 / 0.747    1.000 / 0.889
  kagome        0.627 / 0.420  0.816 / 0.624  0.771 / 0.620    0.889 / 0.667
  paper-regex   0.476 / 0.340  0.809 / 0.616  0.837 / 0.747    0.611 / 0.444`

// DefaultBM25 returns the BM25 parameters of the everyday search: spec
// §9's (k1 = 1.2, b = 0.75), the paper's. Others were measured on the
// development sets and not adopted (docs/everyday-search.md, "BM25's
// parameters"):
//
//	linemem analyzers everyday --bm25 1.2:0.75,0.8:0.5,… \
//	    --corpus devblind=testdata/devblind --corpus mixed=testdata/mixed \
//	    --corpus LoCoMo=build/datasets/locomo --corpus RealPersonaChat=build/datasets/realpersonachat \
//	    --corpus synthetic=data/synthetic
//
// The best of 11 pairs, k1 = 0.8 and b = 0.5, showed the answer line first
// for 1.8 points more questions on the mean of the five sets, but only
// 1.0 point more on each set when chosen without it (leave one set out),
// every gain inside its set's interval and the synthetic set losing.
// Options.BM25 keeps other values one option away for measurement.
func DefaultBM25() bm25.Params { return bm25.SpecParams() }

// DefaultsDoc states the everyday defaults in one line, for help texts.
const DefaultsDoc = "tokenizer " + DefaultTokenizer + "; retriever BM25 over each chunk's summary with a raw excerpt (embedding_text) where it has a summary and its raw_text where it has none, whatever vectors are stored"

// DefaultRetriever is the everyday retriever for a database: BM25 with
// DefaultTokenizer over one index in which each chunk is represented by
// its embedding_text when it has a summary and by its raw_text when it
// has none (represent.EverydayTextRep). The name says what that index
// holds: embedding_text_bm25 when every chunk has a summary,
// raw_text_bm25 when none has, everyday_text_bm25 in between. The choice is
// per chunk, so a chat ingested without summaries into a summarised
// memory changes no other chunk's text (before, the whole memory fell
// back to raw_text: Recall@5 of the shipped questions 0.737 → 0.548).
//
// A single BM25 ranking has none of the linear hybrid's degenerate cases
// (a one-element list normalised to 0). It is the default even when
// vectors are stored, by measurement: fusing the local model's vectors
// lowered raw_text Recall@5 on the synthetic questions (0.552 → 0.473
// linear at β = 0.45, 0.371 by reciprocal rank fusion) and left it level
// on 16-chunk histories (0.940 → 0.945, 0.940). Fused retrievers stay
// available by name (`rrf:…`, `hybrid:…`).
func DefaultRetriever(st *store.Store) (string, error) {
	chunks, summaries, err := st.Counts()
	if err != nil {
		return "", err
	}
	return defaultRetriever(chunks, summaries), nil
}

func defaultRetriever(chunks, summaries int) string {
	switch {
	case chunks > 0 && summaries == chunks:
		return "embedding_text_bm25"
	case summaries > 0:
		return represent.EverydayTextRep + "_bm25"
	}
	return "raw_text_bm25"
}
