package memory

import (
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// DefaultTokenizer is the everyday BM25 tokenizer: the everyday analyzer
// (lib/tokenize/everyday: NFKC and case folding, English words stop-listed
// and stemmed, CJK runs as bigrams). Chosen by the rule of lib/analyzers
// (`linemem analyzers compare`, table in docs/your-history.md): never below
// char-bigram's 95% interval on any of the four corpora and the best mean
// Recall@5 over them. raw_text_bm25 Recall@5: synthetic 0.548 (char-bigram
// 0.552), LoCoMo 0.846 (0.412: bigrams of English letters),
// RealPersonaChat 0.856 (0.854), the mixed-language history 1.000 (1.000).
// kagome falls below char-bigram on RealPersonaChat (0.771) and loads its
// dictionary in every fresh process: about a second, over 100 times the
// first use of any other tokenizer (checked by TestMeasureEverydayDefaults);
// `--tokenizer kagome` remains one flag away.
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
// `search --help`: the table of docs/your-history.md in short.
const TokenizerTableDoc = `raw_text_bm25 Recall@5 / Success@1 (linemem analyzers compare; docs/your-history.md, "Choosing the everyday analyzer"):
  tokenizer     synthetic      LoCoMo         RealPersonaChat  mixed history
  everyday      0.548 / 0.400  0.846 / 0.666  0.856 / 0.753    1.000 / 0.944
  char-bigram   0.552 / 0.410  0.412 / 0.203  0.854 / 0.747    1.000 / 0.889
  kagome        0.627 / 0.420  0.816 / 0.624  0.771 / 0.620    0.889 / 0.667
  paper-regex   0.476 / 0.340  0.809 / 0.616  0.837 / 0.747    0.611 / 0.444`

// DefaultsDoc states the everyday defaults in one line, for help texts.
const DefaultsDoc = "tokenizer " + DefaultTokenizer + "; retriever embedding_text_bm25 when every chunk has a summary, else raw_text_bm25, whatever vectors are stored"

// DefaultRetriever is the everyday retriever for a database: BM25 over
// embedding_text when every chunk has a summary, else over raw_text, with
// DefaultTokenizer. A single BM25 ranking has none of the linear hybrid's
// degenerate cases (a one-element list normalised to 0). It is the default
// even when vectors are stored, by measurement: fusing the local model's
// vectors lowered raw_text Recall@5 on the synthetic questions (0.552 →
// 0.473 linear at β = 0.45, 0.371 by reciprocal rank fusion) and left it
// level on 16-chunk histories (0.940 → 0.945, 0.940). Fused retrievers stay
// available by name (`rrf:…`, `hybrid:…`).
func DefaultRetriever(st *store.Store) (string, error) {
	chunks, summaries, err := st.Counts()
	if err != nil {
		return "", err
	}
	return defaultRetriever(chunks, summaries), nil
}

func defaultRetriever(chunks, summaries int) string {
	if chunks > 0 && summaries == chunks {
		return "embedding_text_bm25"
	}
	return "raw_text_bm25"
}
