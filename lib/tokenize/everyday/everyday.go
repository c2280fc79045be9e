// Package everyday is the analyzer for a person's own chat history, where
// English, Japanese, brand names, numbers and emoji meet in one message. It
// is built the way bleve and Lucene build analyzers: a character filter, a
// tokenizer, then token filters.
//
//  1. Character filter: Unicode NFKC, then full case folding
//     (golang.org/x/text/cases.Fold), so full- and half-width letters,
//     digits and katakana compare equal (ﾊﾞｰﾍﾞｷｭｰ = バーベキュー,
//     １９時 = 19時, ＵＳＢ = usb). Each normalised character keeps the byte
//     range of the original text it came from (one NFKC segment).
//  2. Tokenizer: the normalised text is cut into script runs. A run of
//     letters of an alphabetic script (Latin, Greek, Cyrillic, …) is a word;
//     a run of decimal digits is a number; a run of Han, hiragana, katakana
//     (with ー, 々, ゝゞヽヾ) or Hangul characters is a CJK run. Everything
//     else separates runs and is not indexed: spaces, punctuation, symbols,
//     emoji, and the apostrophe ("don't" → don, t; "Ken's" → ken, s).
//     Letters and digits are separate runs ("mp3" → mp, 3; "5pm" → 5, pm).
//  3. Token filters: a word is dropped when it is an English stop word
//     (the Snowball list, github.com/kljensen/snowball/english.IsStopWord),
//     else replaced by its Snowball English stem (bringing → bring,
//     balls → ball); a number is kept as written; a CJK run of n ≥ 2
//     characters gives its n − 1 overlapping character bigrams and a run of
//     one character gives that character, as Lucene's CJKBigramFilter and
//     Elasticsearch's cjk analyzer do.
//
// CJK runs are bigrams rather than kagome words: on the Japanese corpora of
// the analyzer table (docs/your-history.md, "Choosing the everyday analyzer") bigrams are
// level with or above kagome's words, and they need no dictionary (kagome's
// costs ≈1.1 s of CPU and 175 MB in every fresh process, beyond a first
// search's 300 ms budget). Indexing both would double the CJK postings for
// no measured gain.
//
// Terms gives each term with the byte range of the original text it was
// read from, so a match can be marked in the text as written: a Latin term
// covers its whole word, a bigram its two characters as written (ﾊﾞｰ for
// バー).
//
// Imports: golang.org/x/text, github.com/kljensen/snowball and the standard
// library only.
package everyday

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Name is the registry name of this analyzer.
const Name = "everyday"

// Kind says which filter made a term.
type Kind uint8

const (
	// Word is a stemmed word of an alphabetic script.
	Word Kind = iota + 1
	// Number is a run of decimal digits.
	Number
	// CJK is a character bigram, or a lone character, of a CJK run.
	CJK
)

// Term is one index term with the bytes [Start, End) of the original text
// it was read from.
type Term struct {
	Text       string
	Start, End int
	Kind       Kind
}

// Analyzer is the everyday analyzer. The zero value is ready to use and safe
// for concurrent use.
type Analyzer struct{}

// New returns the analyzer.
func New() Analyzer { return Analyzer{} }

// Name returns Name.
func (Analyzer) Name() string { return Name }

// Tokens returns the terms of text in order, repeats kept; nil when there
// are none.
func (a Analyzer) Tokens(text string) []string {
	terms := a.Terms(text)
	if len(terms) == 0 {
		return nil
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.Text
	}
	return out
}

// Terms returns the terms of text in order with where each was read from;
// nil when there are none.
func (Analyzer) Terms(text string) []Term {
	chars := normalize(text)
	var out []Term
	for i := 0; i < len(chars); {
		k := chars[i].class
		if k == other {
			i++
			continue
		}
		j := i + 1
		for j < len(chars) && (chars[j].class == k || k == letter && chars[j].class == mark) {
			j++
		}
		out = emit(out, chars[i:j], k)
		i = j
	}
	return out
}

// emit appends the terms of one run to out.
func emit(out []Term, run []char, k class) []Term {
	switch k {
	case letter:
		word := runText(run)
		if english.IsStopWord(word) {
			return out
		}
		if latin(word) {
			word = english.Stem(word, true)
		}
		return append(out, Term{Text: word, Start: run[0].start, End: run[len(run)-1].end, Kind: Word})
	case digit:
		return append(out, Term{Text: runText(run), Start: run[0].start, End: run[len(run)-1].end, Kind: Number})
	case cjk:
		if len(run) == 1 {
			return append(out, Term{Text: string(run[0].r), Start: run[0].start, End: run[0].end, Kind: CJK})
		}
		for i := 0; i+1 < len(run); i++ {
			out = append(out, Term{Text: string([]rune{run[i].r, run[i+1].r}), Start: run[i].start, End: run[i+1].end, Kind: CJK})
		}
	}
	return out
}

// latin reports whether every letter of word is of the Latin script, the
// words the English stemmer is for.
func latin(word string) bool {
	for _, r := range word {
		if r >= utf8.RuneSelf && !unicode.Is(unicode.Latin, r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

func runText(run []char) string {
	var b strings.Builder
	for _, c := range run {
		b.WriteRune(c.r)
	}
	return b.String()
}

// class is what the tokenizer makes of a normalised character.
type class uint8

const (
	other  class = iota // separates runs, not indexed
	letter              // a letter of an alphabetic script
	mark                // a combining mark: part of the letter run before it
	digit               // a decimal digit
	cjk                 // Han, kana, Hangul and their marks
)

// char is one normalised, case-folded character and the byte range of the
// original text it came from.
type char struct {
	r          rune
	start, end int
	class      class
}

// normalize applies the character filter: NFKC segment by segment
// (norm.Iter), each segment case-folded, every character of a segment
// carrying the segment's original byte range.
func normalize(text string) []char {
	out := make([]char, 0, len(text))
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	fold := cases.Fold()
	for start := 0; !it.Done(); {
		seg := it.Next()
		end := it.Pos()
		if isASCII(seg) {
			for _, c := range seg {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				out = append(out, char{r: rune(c), start: start, end: end, class: classify(rune(c))})
			}
		} else {
			folded := fold.Bytes(seg)
			for len(folded) > 0 {
				r, n := utf8.DecodeRune(folded)
				folded = folded[n:]
				out = append(out, char{r: r, start: start, end: end, class: classify(r)})
			}
		}
		start = end
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// classify gives the class of a normalised character.
func classify(r rune) class {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			return letter
		case '0' <= r && r <= '9':
			return digit
		}
		return other
	}
	switch {
	case 0x3041 <= r && r <= 0x309F, 0x30A1 <= r && r <= 0x30FA, r == 0x30FC, r == 0x30FD, r == 0x30FE,
		r == 0x3005, r == 0x3006, r == 0x3007,
		unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r), unicode.Is(unicode.Hangul, r):
		if r == 0x309B || r == 0x309C {
			return other
		}
		return cjk
	case unicode.IsLetter(r):
		return letter
	case unicode.IsMark(r):
		return mark
	case unicode.Is(unicode.Nd, r):
		return digit
	}
	return other
}
