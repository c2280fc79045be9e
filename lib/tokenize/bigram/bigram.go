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
	s := strings.ToLower(norm.NFKC.String(text))
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
		if unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) {
			run = append(run, i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}
