package memory

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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
// so never marked. One rule keeps stray kana from being marked: a mark made
// of reading bigrams alone needs at least two of them, at least two thirds
// of the reading bigrams of one word of the question, a content word
// in its text read alone, and no kanji in it: a kanji word of the text that
// shares none of the question word's kanji is another word read alike
// (了解 and 料理, リョウ…) (it still counts in the ranking either way). A pair or two of kana read alike is as
// often a coincidence across words (the って of なってる and the ッテ of 設定;
// the ょうび of きゅうりょうび and of 誕生日, タンジョウビ) as a word; the
// seven pairs of ちゅうしゃじょう for 駐車場 are marked. A word read alike in
// kana and in kanji is marked whole (かぎ for 鍵, 鍵 for かぎ: their spelling
// key, everyday.ReadingSpellingPrefix), though its one reading pair is too
// few; two kanji words read alike (橋, 箸) are not. A kanji word is marked
// for a word the question spells in kana when it holds every reading pair
// of a run of kana of the question, or three of them (readsAKanaRun: 保険証
// for ほけんしょう, 温泉 for おんせんりょこう). This is a mark only: the
// ranking and the confidence meet such words through the reading field.
type Marker struct {
	tok tokenize.Tokenizer
	// loc is tok when its terms are not the text as written (the everyday
	// analyzer's stems and base forms), for the literal fallback's terms
	// (literalTerms); nil for the other tokenizers, whose terms are.
	loc   tokenize.Tokenizer
	want  map[string]bool
	terms []string // distinct question terms, longest first
	// readings are the reading bigrams of each word of the question
	// (questionReadings), distinct, in order
	readings [][]string
	// spellings are the question's own spelling keys of kanji and kana
	// words (everyday.ReadingSpellingPrefix), each true when a word in kana
	// alone gave it (see Spans)
	spellings map[string]bool
	// kanaRuns are the reading bigrams read within each run of kana of the
	// question (kanaRunReadings), for runs with at least two
	kanaRuns [][]string
}

// NewMarker returns the marker of question under tok.
func NewMarker(tok tokenize.Tokenizer, question string) Marker {
	mk := Marker{want: map[string]bool{}, tok: tok}
	if tok.Name() == everyday.Name {
		mk.loc = tok
	}
	qt := tokenize.QuestionTerms(tok, question)
	for _, t := range qt {
		if !mk.want[t.Term] {
			mk.want[t.Term] = true
			mk.terms = append(mk.terms, t.Term)
		}
	}
	sort.SliceStable(mk.terms, func(i, j int) bool { return len(mk.terms[i]) > len(mk.terms[j]) })
	mk.readings = questionReadings(qt)
	mk.kanaRuns = kanaRunReadings(question, qt)
	if mk.loc != nil {
		mk.spellings = map[string]bool{}
		for _, t := range tok.Analyze(question) {
			if strings.HasPrefix(t.Term, everyday.ReadingSpellingPrefix) {
				mk.spellings[t.Term] = mk.spellings[t.Term] || !strings.ContainsFunc(question[t.Start:t.End], isHan)
			}
		}
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
	if len(mk.terms) == 0 || mk.tok == nil {
		return nil
	}
	type hit struct {
		span    Span
		term    string
		reading bool
	}
	var hits []hit
	for _, t := range mk.tok.Analyze(text) {
		kana, spelled := mk.spellings[t.Term]
		switch {
		case mk.want[t.Term]:
			hits = append(hits, hit{Span{t.Start, t.End}, t.Term, strings.HasPrefix(t.Term, everyday.ReadingPrefix)})
		case spelled && (kana || !strings.ContainsFunc(text[t.Start:t.End], isHan)):
			hits = append(hits, hit{Span{t.Start, t.End}, t.Term, false})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].span.Start < hits[j].span.Start })
	var out []Span
	var only []map[string]bool // per span: its reading bigrams, nil once another term joins it
	for _, h := range hits {
		if n := len(out); n > 0 && h.span.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, h.span.End)
			if only[n-1] != nil && h.reading {
				only[n-1][h.term] = true
			} else {
				only[n-1] = nil
			}
			continue
		}
		out = append(out, h.span)
		var set map[string]bool
		if h.reading {
			set = map[string]bool{h.term: true}
		}
		only = append(only, set)
	}
	kept := out[:0]
	for i, sp := range out {
		s := text[sp.Start:sp.End]
		if only[i] == nil || (mk.readsAKanaRun(only[i]) || mk.readsAWord(only[i]) && !strings.ContainsFunc(s, isHan)) && mk.content(s) {
			kept = append(kept, sp)
		}
	}
	return kept
}

// isHan reports whether r is a kanji.
func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// content reports whether s, read alone, holds a content word (a base
// term, not everyday.FieldTerm): the kana a reading mark covers may read, cut out of
// their word, as a particle (the かい of かいもの), which is never marked.
func (mk Marker) content(s string) bool {
	for _, t := range mk.tok.Analyze(s) {
		if !everyday.FieldTerm(t.Term) {
			return true
		}
	}
	return false
}

// readsAWord reports whether the reading bigrams held of a span of reading
// matches alone are at least two and at least two thirds of the reading
// bigrams of one word of the question.
func (mk Marker) readsAWord(held map[string]bool) bool {
	if len(held) < 2 {
		return false
	}
	for _, word := range mk.readings {
		n := 0
		for _, b := range word {
			if held[b] {
				n++
			}
		}
		if n >= 2 && 3*n >= 2*len(word) {
			return true
		}
	}
	return false
}

// readsAKanaRun reports whether the reading bigrams held of a span of
// reading matches alone are, of one run of kana of the question, every
// reading bigram (two or more) or at least three: the span reads as the
// whole of a word the question spells in kana, or as a word of four kana
// or more of it, such as 保険証 for ほけんしょう and 温泉 for
// おんせんりょこう, which the dictionary may cut into pieces that are no
// word (ほけ, ん, しょう; おん, せんり, ょこう). Two pairs alone are as often
// another word read alike (了解 and りょうり share リョ and ョウ).
func (mk Marker) readsAKanaRun(held map[string]bool) bool {
	for _, run := range mk.kanaRuns {
		n := 0
		for _, b := range run {
			if held[b] {
				n++
			}
		}
		if n == len(run) || n >= 3 {
			return true
		}
	}
	return false
}

// kanaRunReadings returns, for each maximal run of kana (hiragana,
// katakana, ー) in question, the distinct reading bigrams of toks read
// within it, for runs with at least two.
func kanaRunReadings(question string, toks []tokenize.Token) [][]string {
	var out [][]string
	for start := 0; start < len(question); {
		r, size := utf8.DecodeRuneInString(question[start:])
		if !isKanaRune(r) {
			start += size
			continue
		}
		end := start
		for end < len(question) {
			r, size := utf8.DecodeRuneInString(question[end:])
			if !isKanaRune(r) {
				break
			}
			end += size
		}
		var run []string
		for _, t := range toks {
			if strings.HasPrefix(t.Term, everyday.ReadingPrefix) && start <= t.Start && t.End <= end && !slices.Contains(run, t.Term) {
				run = append(run, t.Term)
			}
		}
		if len(run) >= 2 {
			out = append(out, run)
		}
		start = end
	}
	return out
}

// isKanaRune reports whether r is hiragana, katakana or the long-vowel
// mark ー.
func isKanaRune(r rune) bool {
	return unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 'ー'
}

// questionReadings groups the reading bigrams of a question's terms by
// word: the base term (not everyday.FieldTerm) whose bytes hold the bigram's; a
// bigram read across two words (the ウヤ of 月曜休み) belongs to neither.
func questionReadings(toks []tokenize.Token) [][]string {
	var words []tokenize.Token
	for _, t := range toks {
		if !everyday.FieldTerm(t.Term) {
			words = append(words, t)
		}
	}
	out := make([][]string, len(words))
	for _, t := range toks {
		if !strings.HasPrefix(t.Term, everyday.ReadingPrefix) {
			continue
		}
		for i, w := range words {
			if w.Start <= t.Start && t.End <= w.End && !slices.Contains(out[i], t.Term) {
				out[i] = append(out[i], t.Term)
				break
			}
		}
	}
	return out
}
