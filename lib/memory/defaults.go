package memory

import (
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize/bigram"
)

// DefaultTokenizer is the everyday BM25 tokenizer: overlapping character
// 2-grams after NFKC (lib/tokenize/bigram). Chosen by measurement
// (TestMeasureEverydayDefaults, figures in the README): on the synthetic
// questions it raises raw_text_bm25 Recall@5 from 0.476 (the paper's regex
// tokenizer) to 0.552 and embedding_text_bm25 from 0.573 to 0.747, and on
// 16-chunk histories from 0.795 to 0.940; it finds single kanji and words
// inside longer kanji runs (鍋, 飛行機 in 飛行機代) that the regex drops.
// kagome scores higher still (0.627, 0.789, 0.970) but loading its
// dictionary costs ≈1.1 s of CPU and 175 MB in every fresh process, before
// any indexing, against a cold-search budget of 300 ms; char-bigram costs
// nothing to load. `--tokenizer kagome` remains one flag away.
const DefaultTokenizer = bigram.Name

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
