// Package bigram is the dictionary-free tokenizer for Japanese: overlapping
// character 2-grams.
//
// Text is NFKC-normalised (full-width letters and digits become ASCII,
// half-width katakana become full-width) and lowercased (Unicode simple
// case mapping). It is then split into runs of letters, marks and digits
// (unicode.IsLetter, unicode.IsMark, unicode.IsDigit; kana, kanji, the
// long-vowel mark ー and the iteration mark 々 are letters); everything else
// (spaces, punctuation, symbols, emoji) separates runs. A run of n ≥ 2
// characters gives its n − 1 overlapping 2-grams in order; a run of one
// character gives that character, so single-kanji words such as 雨 stay
// searchable. Latin words are split into 2-grams as well ("usb" → "us", "sb").
package bigram

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Name is the registry name of this tokenizer.
const Name = "char-bigram"

// Tokenizer emits character 2-grams. The zero value is ready to use and safe
// for concurrent use.
type Tokenizer struct{}

// New returns the 2-gram tokenizer.
func New() Tokenizer { return Tokenizer{} }

// Name returns Name.
func (Tokenizer) Name() string { return Name }

// Tokens returns the 2-grams of text in order, repeats kept; nil when text
// holds no letter or digit.
func (Tokenizer) Tokens(text string) []string {
	s := lower(norm.NFKC.String(text))
	var out []string
	var run []int // byte offsets of the current run's characters
	flush := func(end int) {
		switch len(run) {
		case 0:
		case 1:
			out = append(out, s[run[0]:end])
		default:
			for i := 0; i+1 < len(run); i++ {
				stop := end
				if i+2 < len(run) {
					stop = run[i+2]
				}
				out = append(out, s[run[i]:stop])
			}
		}
		run = run[:0]
	}
	for i, r := range s {
		if isWord(r) {
			run = append(run, i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// lower is strings.ToLower(s). Characters that have no case (ASCII other
// than A–Z, kana, CJK ideographs) skip the per-character case lookup; when
// any character would change, or s holds a byte that is not UTF-8,
// strings.ToLower itself does the work.
func lower(s string) string {
	for _, r := range s {
		if r < 0x80 {
			if 'A' <= r && r <= 'Z' {
				return strings.ToLower(s)
			}
			continue
		}
		if kanaOrIdeograph(r) {
			continue
		}
		if r == utf8.RuneError || unicode.ToLower(r) != r {
			return strings.ToLower(s)
		}
	}
	return s
}

// isWord is unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r),
// answered without a table lookup for ASCII, kana and CJK ideographs.
func isWord(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return kanaOrIdeograph(r) || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// kanaOrIdeograph reports whether r is a hiragana (U+3041–U+3096) or
// katakana (U+30A1–U+30FA) letter or a CJK unified ideograph
// (U+4E00–U+9FFF): letters without case.
func kanaOrIdeograph(r rune) bool {
	return 0x3041 <= r && r <= 0x3096 || 0x30A1 <= r && r <= 0x30FA || 0x4E00 <= r && r <= 0x9FFF
}
