package everyday

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// class is what the analyzer makes of a normalised character.
type class uint8

const (
	other    class = iota // separates runs, not indexed
	letter                // a letter of an alphabetic script
	mark                  // a combining mark: part of the letter run before it
	digit                 // a decimal digit
	katakana              // a katakana letter (ァ–ヺ) or ヽヾ
	cjk                   // Han, hiragana, Hangul and their marks (々〆〇ゝゞ)
)

// char is one normalised, case-folded character and the bytes of the
// original text it came from.
type char struct {
	r          rune
	start, end int
	class      class
}

// normalize applies the character filter: NFKC segment by segment
// (norm.Iter), each segment case-folded, every character of a segment
// carrying the segment's bytes of the original text. A long expansion
// (㍿ → 株式会社) comes in several pieces of which only the last reads a
// byte: the characters of all of them carry the bytes it read.
func normalize(text string) []char {
	out := make([]char, 0, len(text))
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	fold := cases.Fold()
	pending := 0
	for start := 0; !it.Done(); {
		seg := it.Next()
		if isASCII(seg) {
			for _, c := range seg {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				out = append(out, char{r: rune(c), class: classify(rune(c))})
			}
		} else {
			folded := fold.Bytes(seg)
			for len(folded) > 0 {
				r, n := utf8.DecodeRune(folded)
				folded = folded[n:]
				out = append(out, char{r: r, class: classify(r)})
			}
		}
		if end := it.Pos(); end > start || it.Done() {
			for i := pending; i < len(out); i++ {
				out[i].start, out[i].end = start, end
			}
			pending, start = len(out), end
		}
	}
	return out
}

// isASCII reports whether every byte of s is ASCII.
func isASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
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
	case 0x30A1 <= r && r <= 0x30FA, r == 0x30FD, r == 0x30FE:
		return katakana
	case r == 0x30FC:
		return other // ー belongs to the run before it (sameRun)
	case r == 0x309B || r == 0x309C:
		return other
	case 0x3041 <= r && r <= 0x309F, r == 0x3005, r == 0x3006, r == 0x3007,
		unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Hangul, r):
		return cjk
	case unicode.Is(unicode.Katakana, r):
		return katakana
	case unicode.IsLetter(r):
		return letter
	case unicode.IsMark(r):
		return mark
	case unicode.Is(unicode.Nd, r):
		return digit
	}
	return other
}

// isHan reports whether r is a kanji (or 々〆), the characters of the
// fallback field's bigrams.
func isHan(r rune) bool {
	return r == 0x3005 || r == 0x3006 || r >= 0x2E80 && unicode.Is(unicode.Han, r)
}

// isKana reports whether r is hiragana, katakana or ー.
func isKana(r rune) bool {
	return 0x3041 <= r && r <= 0x3096 || 0x30A1 <= r && r <= 0x30FA || r == 0x30FC || r == 0x309D || r == 0x309E || r == 0x30FD || r == 0x30FE
}

// toKatakana maps hiragana to katakana (ぁ–ゖ → ァ–ヶ, ゝゞ → ヽヾ).
func toKatakana(r rune) rune {
	if 0x3041 <= r && r <= 0x3096 || r == 0x309D || r == 0x309E {
		return r + 0x60
	}
	return r
}
