package memory

import (
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// Marker finds where a message matches a question. Its zero value marks
// nothing.
//
// A message is marked only where one of its analysed terms equals an
// analysed term of the question, over the bytes the tokenizer says the
// term was read from (tokenize.Tokenizer's Analyze); overlapping or
// touching marks merge. Under the everyday analyzer a mark is therefore a
// whole analysed word: a Latin word as written (balls for the question's
// "ball"), a katakana word (never コート inside チョコレート), a morpheme in
// base form (行っ for 行く), a time or number in any of its forms (19時 for
// 7pm), or the morphemes a reading or kanji bigram was read from
// (ちゅうしゃじょう for 駐車場); particles and auxiliaries are never terms,
// so never marked. One rule keeps stray kana from being marked: a reading
// bigram that overlaps no other match is not marked (it still counts in
// the ranking). A lone pair of kana read alike is as often a coincidence
// across words (the って of なってる and the ッテ of 設定, セッテイ) as a
// word; the seven overlapping pairs of ちゅうしゃじょう for 駐車場 are marked.
type Marker struct {
	tok tokenize.Tokenizer
	// loc is tok when its terms are not the text as written (the everyday
	// analyzer's stems and base forms), for the literal fallback's terms
	// (literalTerms); nil for the other tokenizers, whose terms are.
	loc   tokenize.Tokenizer
	want  map[string]bool
	terms []string // distinct question terms, longest first
}

// NewMarker returns the marker of question under tok.
func NewMarker(tok tokenize.Tokenizer, question string) Marker {
	mk := Marker{want: map[string]bool{}, tok: tok}
	if tok.Name() == everyday.Name {
		mk.loc = tok
	}
	for _, t := range tokenize.QuestionTokens(tok, question) {
		if !mk.want[t] {
			mk.want[t] = true
			mk.terms = append(mk.terms, t)
		}
	}
	sort.SliceStable(mk.terms, func(i, j int) bool { return len(mk.terms[i]) > len(mk.terms[j]) })
	return mk
}

// Marker returns the marker of question under the memory's tokenizer: the
// one every front end marks a search's messages with.
func (m *Memory) Marker(question string) Marker { return NewMarker(m.tokenizer, question) }

// Terms are the question's distinct terms, longest first.
func (mk Marker) Terms() []string { return mk.terms }

// Spans returns the marked byte ranges of text, ordered and not
// overlapping.
func (mk Marker) Spans(text string) []Span {
	if len(mk.terms) == 0 || mk.tok == nil {
		return nil
	}
	type hit struct {
		span    Span
		reading bool
	}
	var hits []hit
	for _, t := range mk.tok.Analyze(text) {
		if mk.want[t.Term] {
			hits = append(hits, hit{Span{t.Start, t.End}, strings.HasPrefix(t.Term, everyday.ReadingPrefix)})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].span.Start < hits[j].span.Start })
	var out []Span
	lone := false // the last span is one reading bigram alone
	for _, h := range hits {
		if n := len(out); n > 0 && h.span.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, h.span.End)
			lone = false
			continue
		}
		if lone {
			out = out[:len(out)-1]
		}
		out = append(out, h.span)
		lone = h.reading
	}
	if lone {
		out = out[:len(out)-1]
	}
	return out
}
