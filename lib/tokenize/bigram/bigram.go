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
// The text is read once. Stable characters (see stable) are their own NFKC
// and lower case, so 2-grams between them are slices of text. Each stretch of
// other characters is normalised on its own into a short piece that also
// holds the character before the stretch and the one after it, so that the
// 2-grams reaching into the stretch are slices of the piece. The pieces give
// what normalising the whole text gives because NFKC may cut a text before
// any starter that combines with nothing before it
// (norm.Properties.BoundaryBefore) and normalise the parts on their own, and
// the case mapping works character by character. Stable characters and A–Z
// are such starters, so a stretch starts at the stable character before its
// first unstable one, which may compose with it (か + U+3099 → が), or at the
// unstable one itself when it is A–Z or opens the text; it ends before a
// stable character followed by another stable character or by the end of
// the text (see stretchEnd), so the character after it is left as it is.
// norm reads a byte that is not UTF-8 differently at the end of a part (an
// incomplete sequence is kept as it is), so a text holding one is normalised
// at once instead.
func (Tokenizer) Tokens(text string) []string {
	b := bigrams{out: make([]string, 0, len(text)/2+1)}
	// saved is b before the last stable character read, which starts at
	// last (-1 when there is none).
	saved, last := b, -1
	var buf []byte
	for i := 0; i < len(text); {
		var r rune
		var n int
		var ok, word bool
		if c := text[i]; c < utf8.RuneSelf {
			r, n = rune(c), 1
			ok = c < 'A' || 'Z' < c
			word = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
		} else if c <= 0xE9 && 0xE3 <= c && i+2 < len(text) && text[i+1]&0xC0 == 0x80 && text[i+2]&0xC0 == 0x80 {
			// U+3000–U+9FFF, as decode reads it
			r, n = rune(c&0x0F)<<12|rune(text[i+1]&0x3F)<<6|rune(text[i+2]&0x3F), 3
			if r >= 0x4E00 || 0x3041 <= r && r <= 0x3096 {
				ok, word = true, true
			} else {
				ok, word = stable(r)
			}
		} else {
			r, n = decode(text, i)
			ok, word = stable(r)
		}
		if ok {
			saved, last = b, i
			b.add(text, i, n, word)
			i += n
			continue
		}
		if r == utf8.RuneError && n == 1 {
			return whole(text)
		}
		// A stretch starts at the stable character before i, which may
		// compose with the character at i (か + U+3099 → が); A–Z combine
		// with nothing before them.
		from := i
		if last >= 0 && !('A' <= r && r <= 'Z') {
			from, b = last, saved
		}
		to, ascii, invalid := stretchEnd(text, i+n, r < utf8.RuneSelf)
		if invalid {
			return whole(text)
		}
		next := to // end of the stable character after the stretch
		if to < len(text) {
			_, m := decode(text, to)
			next = to + m
		}
		buf = buf[:0]
		if b.run > 0 {
			buf = append(buf, b.src[b.prev:b.end]...)
		}
		k := len(buf)
		if ascii && from == i {
			for j := from; j < to; j++ {
				c := text[j]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
			}
		} else {
			buf = norm.NFKC.AppendString(buf, text[from:to])
			if needsLower(buf[k:]) {
				lowered := bytes.ToLower(buf[k:])
				buf = append(buf[:k], lowered...)
			}
		}
		buf = append(buf, text[to:next]...)
		piece := string(buf)
		b.src, b.prev, b.end = piece, 0, k
		b.scan(piece, k)
		if next == to {
			break
		}
		// The run's last character, the stable one after the stretch, is
		// read from text again rather than from the piece.
		b.src, b.prev, b.end = text, to, next
		last, i = -1, next
	}
	b.flush()
	return nonEmpty(b.out)
}

// nonEmpty returns out, or nil when it is empty.
func nonEmpty(out []string) []string {
	if len(out) == 0 {
		return nil
	}
	return out
}

// whole tokenizes strings.ToLower(norm.NFKC.String(text)).
func whole(text string) []string {
	var b bigrams
	b.scan(strings.ToLower(norm.NFKC.String(text)), 0)
	b.flush()
	return nonEmpty(b.out)
}

// stretchEnd returns where the stretch of characters to normalise that goes
// on at text[i:] ends: before the first stable character followed by a
// stable character or by the end of text, or at len(text). ascii reports
// whether text[i:end] holds only ASCII and asciiBefore is true (the stretch
// before i is ASCII); invalid whether text[i:end] holds a byte that is not
// UTF-8, in which case end is 0.
func stretchEnd(text string, i int, asciiBefore bool) (end int, ascii, invalid bool) {
	ascii = asciiBefore
	for i < len(text) {
		r, n := decode(text, i)
		if ok, _ := stable(r); ok {
			if i+n == len(text) {
				return i, ascii, false
			}
			if ok, _ := stable(decodeRune(text, i+n)); ok {
				return i, ascii, false
			}
		} else if r == utf8.RuneError && n == 1 {
			return 0, false, true
		}
		ascii = ascii && r < utf8.RuneSelf
		i += n
	}
	return i, ascii, false
}

// decodeRune returns the character at s[i], as decode does.
func decodeRune(s string, i int) rune {
	r, _ := decode(s, i)
	return r
}

// bigrams collects the 2-grams of characters read one by one.
type bigrams struct {
	out  []string
	src  string // the string that holds the last character of the run
	prev int    // start of that character in src
	end  int    // its end
	run  int    // characters in the current run
}

// add reads the character src[i:i+n], a letter or digit when word. When the
// run is not empty, src also holds the run's last character right before i.
func (b *bigrams) add(src string, i, n int, word bool) {
	if !word {
		b.flush()
		return
	}
	if b.run > 0 {
		b.out = append(b.out, src[b.prev:i+n])
	}
	b.src, b.prev, b.end = src, i, i+n
	b.run++
}

// flush ends the current run: a run of one character is a token.
func (b *bigrams) flush() {
	if b.run == 1 {
		b.out = append(b.out, b.src[b.prev:b.end])
	}
	b.run = 0
}

// scan reads the characters of s[i:], which is normalised and lower-case.
func (b *bigrams) scan(s string, i int) {
	for i < len(s) {
		r, n := decode(s, i)
		b.add(s, i, n, isWord(r))
		i += n
	}
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
