package bigram

import (
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize/token"
	"golang.org/x/text/unicode/norm"
)

// Analyze returns the tokens of text, as Tokens does, each with the bytes
// of text it was read from. The text is normalised one NFKC segment at a
// time (norm.Iter, whose segments concatenate to the NFKC of the whole
// text) and each segment lowercased; every character of a segment covers
// the segment's bytes of text, so a 2-gram covers its two characters as
// written (ﾊﾞｰ for バー). Text that is not valid UTF-8 may give other
// terms next to its bad bytes than Tokens, which normalises such a text as
// a whole.
func (Tokenizer) Analyze(text string) []token.Token {
	type char struct {
		r          rune
		start, end int
	}
	var chars []char
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	// A long expansion (㍿ → 株式会社) comes in several pieces, all but the
	// last reading no byte: the characters from pending on wait for the
	// piece that does.
	pending := 0
	for start := 0; !it.Done(); {
		for _, r := range strings.ToLower(string(it.Next())) {
			chars = append(chars, char{r: r})
		}
		if end := it.Pos(); end > start || it.Done() {
			for i := pending; i < len(chars); i++ {
				chars[i].start, chars[i].end = start, end
			}
			pending, start = len(chars), end
		}
	}
	var out []token.Token
	run := 0
	for i, c := range chars {
		if !isWord(c.r) || c.r == utf8.RuneError {
			if run == 1 {
				p := chars[i-1]
				out = append(out, token.Token{Term: string(p.r), Start: p.start, End: p.end})
			}
			run = 0
			continue
		}
		if run > 0 {
			p := chars[i-1]
			out = append(out, token.Token{Term: string([]rune{p.r, c.r}), Start: p.start, End: c.end})
		}
		run++
	}
	if run == 1 {
		p := chars[len(chars)-1]
		out = append(out, token.Token{Term: string(p.r), Start: p.start, End: p.end})
	}
	return out
}
