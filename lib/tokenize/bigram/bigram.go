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
	"bytes"
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
//
// The text is read once while its characters are stable (see stable): such a
// prefix is already normalised and lower-case, so its 2-grams are slices of
// text itself. At the first other character the rest is normalised (see
// normalize) from the character before it, which may compose with it, and
// reading resumes there.
func (Tokenizer) Tokens(text string) []string {
	s := text
	out := make([]string, 0, len(text)/3+1)
	raw := true       // s is text, stable so far
	prev, run := 0, 0 // start of the run's last character; characters in the run
	// the state before the last character read, where reading resumes once
	// s is normalised
	lastI, lastPrev, lastRun, lastOut := 0, 0, 0, 0
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		var word bool
		if raw {
			var ok bool
			if ok, word = stable(r); !ok {
				if i > 0 {
					i, prev, run, out = lastI, lastPrev, lastRun, out[:lastOut]
				}
				var whole bool
				s, whole = normalize(text, i)
				if whole {
					i, prev, run, out = 0, 0, 0, out[:0]
				}
				raw = false
				continue
			}
			lastI, lastPrev, lastRun, lastOut = i, prev, run, len(out)
		} else {
			word = isWord(r)
		}
		if word {
			if run > 0 {
				out = append(out, s[prev:i+n])
			}
			prev = i
			run++
		} else {
			if run == 1 {
				out = append(out, s[prev:i])
			}
			run = 0
		}
		i += n
	}
	if run == 1 {
		out = append(out, s[prev:])
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// normalize returns strings.ToLower(norm.NFKC.String(text)) for a text whose
// characters before start are stable (see stable). Stable characters are
// copied as they are; only the stretches between them go through norm and
// the case mapping. A stretch starts at the stable character before the
// first unstable one, since that character may compose with what follows
// (か + U+3099 → が), and ends before the next stable character: stable
// characters are starters that combine with nothing before them
// (norm.Properties.BoundaryBefore), so the NFKC of the text is the
// concatenation of the NFKC of the pieces, and the case mapping works
// character by character.
//
// A byte that is not UTF-8 makes norm's reading depend on what follows it
// (an incomplete sequence at the end of a piece is kept as it is), so when
// text holds one, normalize returns the whole text normalised at once and
// whole is true.
func normalize(text string, start int) (s string, whole bool) {
	buf := make([]byte, 0, len(text)+len(text)/8)
	done := 0  // text[:done] is in buf
	last := -1 // start of the last stable character, -1 at a stretch's end
	for i := start; i < len(text); {
		r, n := decode(text, i)
		if ok, _ := stable(r); ok {
			last = i
			i += n
			continue
		}
		from := i
		if last >= 0 {
			from = last
		}
		if r == utf8.RuneError && n == 1 {
			return strings.ToLower(norm.NFKC.String(text)), true
		}
		to := i + n
		for to < len(text) {
			r, n := decode(text, to)
			if ok, _ := stable(r); ok {
				break
			}
			if r == utf8.RuneError && n == 1 {
				return strings.ToLower(norm.NFKC.String(text)), true
			}
			to += n
		}
		buf = append(buf, text[done:from]...)
		m := len(buf)
		buf = norm.NFKC.AppendString(buf, text[from:to])
		if needsLower(buf[m:]) {
			lowered := bytes.ToLower(buf[m:])
			buf = append(buf[:m], lowered...)
		}
		done, last, i = to, -1, to
	}
	buf = append(buf, text[done:]...)
	return string(buf), false
}

// decode returns the character at s[i] and its size in bytes, as
// utf8.DecodeRuneInString(s[i:]) does; three-byte characters from U+3000 to
// U+9FFF (kana, CJK punctuation and ideographs) are decoded inline.
func decode(s string, i int) (rune, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if 0xE3 <= c && c <= 0xE9 && i+2 < len(s) {
		c1, c2 := s[i+1], s[i+2]
		if c1&0xC0 == 0x80 && c2&0xC0 == 0x80 {
			return rune(c&0x0F)<<12 | rune(c1&0x3F)<<6 | rune(c2&0x3F), 3
		}
	}
	return utf8.DecodeRuneInString(s[i:])
}

// needsLower reports whether bytes.ToLower would change b: it holds a
// character with a lower-case mapping or a byte that is not UTF-8.
func needsLower(b []byte) bool {
	for i := 0; i < len(b); {
		c, n := rune(b[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRune(b[i:])
		}
		if c == utf8.RuneError && n == 1 || unicode.ToLower(c) != c {
			return true
		}
		i += n
	}
	return false
}

// stable reports whether r is one of the characters of everyday Japanese
// chat that NFKC and unicode.ToLower leave unchanged and that start a
// normalization segment (norm.Properties.BoundaryBefore: a starter that
// combines with nothing before it), and whether it is a letter or digit
// (isWord). Stable: ASCII other than A–Z; CJK punctuation U+3001–U+301F
// (、。「」『』【】〜…); hiragana U+3041–U+3096 and ゝゞ; katakana
// U+30A0–U+30FE (with ・ and ー); CJK unified ideographs U+4E00–U+9FFF;
// the symbols and dingbats U+2600–U+27BF; the emoji U+1F300–U+1F64F,
// U+1F680–U+1F6FF and U+1F900–U+1F9FF; the zero-width joiner U+200D and
// the variation selectors U+FE00–U+FE0F. Everything else, including
// full-width forms, half-width katakana, combining marks and bytes that are
// not UTF-8, is unstable.
func stable(r rune) (ok, word bool) {
	switch {
	case r < utf8.RuneSelf:
		return r < 'A' || 'Z' < r, 'a' <= r && r <= 'z' || '0' <= r && r <= '9'
	case 0x3041 <= r && r <= 0x3096, 0x4E00 <= r && r <= 0x9FFF:
		return true, true
	case 0x30A0 <= r && r <= 0x30FE:
		return true, r != 0x30A0 && r != 0x30FB
	case 0x3001 <= r && r <= 0x301F:
		return true, r == 0x3005 || r == 0x3006
	case r == 0x309D, r == 0x309E:
		return true, true
	case 0x2600 <= r && r <= 0x27BF, r == 0x200D:
		return true, false
	case 0xFE00 <= r && r <= 0xFE0F:
		return true, true
	case 0x1F300 <= r && r <= 0x1F64F, 0x1F680 <= r && r <= 0x1F6FF, 0x1F900 <= r && r <= 0x1F9FF:
		return true, false
	}
	return false, false
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
