package memory

import (
	"sort"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// locator is a tokenizer that says where in the original text each term
// was read from (lib/tokenize/everyday).
type locator interface {
	Terms(text string) []everyday.Term
}

// Marker finds where a message matches a question. Its zero value marks
// nothing.
//
// With a tokenizer that locates its terms (the everyday analyzer), a
// message is marked only where one of its analysed terms equals an
// analysed term of the question: a Latin term covers its whole word as
// written (balls for the question's "ball"), a CJK bigram its two
// characters as written (ﾊﾞｰ for バー); overlapping or touching marks merge
// (保険 and 険証 mark 保険証). One exception keeps particles and inflections
// from being marked on their own: a bigram of two hiragana that touches no
// other mark is marked only when the message has no other kind of mark and
// matches at least two distinct question terms: in 変わったって連絡あった
// only 変わった is marked, やばい alone does not match 買えばいい, and in a
// chat written in hiragana なにを かえば いい still matches 何を買えばいい twice.
//
// With any other tokenizer, the question's terms are found in the text as
// written (Matches).
type Marker struct {
	loc   locator
	want  map[string]bool
	terms []string // distinct question terms, longest first
}

// NewMarker returns the marker of question under tok.
func NewMarker(tok tokenize.Tokenizer, question string) Marker {
	mk := Marker{want: map[string]bool{}}
	for _, t := range tok.Tokens(question) {
		if !mk.want[t] {
			mk.want[t] = true
			mk.terms = append(mk.terms, t)
		}
	}
	sort.SliceStable(mk.terms, func(i, j int) bool { return len(mk.terms[i]) > len(mk.terms[j]) })
	if loc, ok := tok.(locator); ok {
		mk.loc = loc
	}
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
	if len(mk.terms) == 0 {
		return nil
	}
	if mk.loc == nil {
		return Matches(text, mk.terms)
	}
	var hits []everyday.Term
	distinct := map[string]bool{}
	for _, t := range mk.loc.Terms(text) {
		if mk.want[t.Text] {
			hits = append(hits, t)
			distinct[t.Text] = true
		}
	}
	type mark struct {
		span Span
		kana bool // a lone hiragana bigram
	}
	var marks []mark
	other := false
	for i := 0; i < len(hits); {
		mk := mark{span: Span{hits[i].Start, hits[i].End}, kana: hiraganaBigram(hits[i])}
		j := i + 1
		for ; j < len(hits) && hits[j].Start <= mk.span.End; j++ {
			mk.span.End = max(mk.span.End, hits[j].End)
			mk.kana = false
		}
		other = other || !mk.kana
		marks = append(marks, mk)
		i = j
	}
	var out []Span
	for _, mk := range marks {
		if !mk.kana || !other && len(distinct) >= 2 {
			out = append(out, mk.span)
		}
	}
	return out
}

// hiraganaBigram reports whether t is a CJK bigram of two hiragana.
func hiraganaBigram(t everyday.Term) bool {
	if t.Kind != everyday.CJK || utf8.RuneCountInString(t.Text) != 2 {
		return false
	}
	for _, r := range t.Text {
		if r < 0x3041 || r > 0x309F {
			return false
		}
	}
	return true
}
