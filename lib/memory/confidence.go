package memory

import (
	"slices"
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// DefaultMinConfidence is the confidence below which an everyday search
// says the history may not hold the answer (and `ask` says so beside the
// line it quotes). Chosen by measurement on the default path of each
// development set (docs/everyday-search.md, "When nothing is found"):
//
//	linemem analyzers everyday --choose-threshold --corpus devblind=testdata/devblind \
//	    --corpus mixed=testdata/mixed --corpus synthetic=data/synthetic \
//	    --corpus locomo=build/datasets/locomo
//
// the highest threshold at which no set has more than 15% of its answerable
// questions flagged (analyzers.ChooseThresholdWithin); the error rates are
// AbstainTableDoc. TestAbstainTableDocMatchesMeasurement reruns it on the
// shipped sets.
const DefaultMinConfidence = 0.28

// AbstainTableDoc is the measurement behind DefaultMinConfidence, for
// `search --help`: the share of answerable questions flagged and of
// unanswerable ones (noanswer.jsonl, LoCoMo's adversarial category, each
// question asked against the other chats) flagged, per development set.
const AbstainTableDoc = `"may not hold the answer" below 0.28 (linemem analyzers everyday --choose-threshold):
  set        answerable flagged  unanswerable flagged  (goal: ≤ 15%, ≥ 80%)
  devblind   6.9%                65.8%                 (58 / 76 questions; its no-answer questions name real things of the chats)
  mixed      5.6%                62.5%                 (18 / 24)
  synthetic  14.0%               64.0%                 (100 / 86)
  LoCoMo     0.4%                23.5%                 (1506 / 1952; adversarial questions name a real event of another person)`

// ConfidenceOf is how much of the question the top window holds, in the
// index that ranked it (so in its summary for embedding_text_bm25): the
// share of the question's distinct terms, each weighted by its BM25 IDF
// over the index, that the document topID holds,
//
//	C = Σ_{t ∈ Q, held(t)} idf(t) / Σ_{t ∈ Q} idf(t),  idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5)),
//
// in [0, 1]. A loanword or spelling key (everyday.Alternative: another
// spelling of a word, in the other script) is in Q only when the document
// holds it, and then holds the word it was read from too: a term is held
// when the document contains it or such a key read from the same bytes of
// the question (so "projector" is held by a window that writes
// プロジェクター, and ゴミ by one that writes ごみ). A
// question term found nowhere in the history has the largest IDF, so a
// question about something never written lowers C most. C is 0 for a
// question without terms or a document not in the index. Search passes the
// question's content (ParseQuestion): question words do not count.
func ConfidenceOf(ix *bm25.Index, tok tokenize.Tokenizer, question, topID string) float64 {
	spans := map[string][]Span{}
	var terms []string
	for _, t := range tokenize.QuestionTerms(tok, question) {
		if _, seen := spans[t.Term]; !seen {
			terms = append(terms, t.Term)
		}
		spans[t.Term] = append(spans[t.Term], Span{t.Start, t.End})
	}
	sort.Strings(terms) // a fixed order of the sums
	if len(terms) == 0 {
		return 0
	}
	in := ix.Holds(topID, terms)
	spelled := map[Span]bool{} // bytes of the question a held loanword or spelling key was read from
	for i, t := range terms {
		if in[i] && everyday.Alternative(t) {
			for _, sp := range spans[t] {
				spelled[sp] = true
			}
		}
	}
	var held, all float64
	for i, t := range terms {
		if everyday.Alternative(t) && !in[i] {
			continue
		}
		idf := bm25.IDF(ix.Len(), ix.DocFreq(t))
		all += idf
		if in[i] || slices.ContainsFunc(spans[t], func(sp Span) bool { return spelled[sp] }) {
			held += idf
		}
	}
	if all == 0 {
		return 0
	}
	return held / all
}

// MissingWords returns the words of question, as written, that the
// history behind ix never contains, in question order. The words are
// QuestionWords' with a base term; one is in the history when a document
// holds a term read within its bytes — its base term, a kanji bigram, its
// loanword or spelling key — or every reading bigram of the word read
// alone, together (the word spelled in kana: ちゅうしゃじょう holds 駐車場).
// Read alone, so that a bigram read across the word and a particle beside
// it in the question (the デヤ of で休み) is not asked of the history. A
// reading bigram alone, or one across two words, says nothing: ドク and
// ショ of 読書 are in many other words.
func MissingWords(ix *bm25.Index, tok tokenize.Tokenizer, question string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range questionWords(tok, question) {
		if s := question[w.span.Start:w.span.End]; w.base && !inHistory(ix, tok, s, w) && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// inHistory reports whether the history behind ix holds word w, written
// text in the question (see MissingWords).
func inHistory(ix *bm25.Index, tok tokenize.Tokenizer, text string, w *contentWord) bool {
	for _, t := range w.terms {
		if t.Start >= w.span.Start && t.End <= w.span.End && !strings.HasPrefix(t.Term, everyday.ReadingPrefix) && ix.DocFreq(t.Term) > 0 {
			return true
		}
	}
	var reading []string
	for _, t := range tok.Analyze(text) {
		if strings.HasPrefix(t.Term, everyday.ReadingPrefix) {
			reading = append(reading, t.Term)
		}
	}
	return len(reading) > 0 && ix.Together(reading)
}

// QuestionWords groups the distinct terms of question under tok
// (tokenize.QuestionTerms) by the word they were read from, words in
// question order: each distinct base term (not an everyday.FieldTerm) opens
// a word; a field term — a reading or kanji bigram, a loanword or spelling
// key — joins
// the first word whose base term's bytes overlap its own, else the first
// word of field terms only that it overlaps (which grows to cover it), else
// opens such a word. A term is in one word only, the first that read it.
// So 司会 with r:シカ, r:カイ and g:司会 is one word, "projector" with its
// loanword key p:PRSKT one word, and a reading bigram across two words
// joins the first.
func QuestionWords(tok tokenize.Tokenizer, question string) [][]string {
	words := questionWords(tok, question)
	out := make([][]string, len(words))
	for i, w := range words {
		for _, t := range w.terms {
			out[i] = append(out[i], t.Term)
		}
	}
	return out
}

// contentWord is a word of QuestionWords with the bytes of the question
// it was read from: its base term's, or, for a word of field terms only
// (base false), all of theirs; and each term with its own bytes.
type contentWord struct {
	span  Span
	base  bool
	terms []tokenize.Token
}

func questionWords(tok tokenize.Tokenizer, question string) []*contentWord {
	toks := tokenize.QuestionTerms(tok, question)
	sort.SliceStable(toks, func(i, j int) bool { return toks[i].Start < toks[j].Start })
	var words []*contentWord
	placed := map[string]bool{}
	for _, t := range toks {
		if !everyday.FieldTerm(t.Term) && !placed[t.Term] {
			placed[t.Term] = true
			words = append(words, &contentWord{Span{t.Start, t.End}, true, []tokenize.Token{t}})
		}
	}
	overlaps := func(t tokenize.Token, w *contentWord) bool { return t.Start < w.span.End && w.span.Start < t.End }
	for _, t := range toks {
		if placed[t.Term] {
			continue
		}
		placed[t.Term] = true
		i := slices.IndexFunc(words, func(w *contentWord) bool { return overlaps(t, w) })
		switch {
		case i < 0:
			words = append(words, &contentWord{Span{t.Start, t.End}, false, []tokenize.Token{t}})
		case words[i].base:
			words[i].terms = append(words[i].terms, t)
		default: // a word of field terms grows to cover t
			w := words[i]
			w.span = Span{min(w.span.Start, t.Start), max(w.span.End, t.End)}
			w.terms = append(w.terms, t)
		}
	}
	sort.SliceStable(words, func(i, j int) bool { return words[i].span.Start < words[j].span.Start })
	return words
}
