// Package tokenizetest holds a tokenizer for tests whose expected values
// are worked out by hand: Fields splits on white space, so every term and
// its bytes are visible in the test's text. Only tests import it.
package tokenizetest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize/token"
)

// Fields is a tokenizer (lib/tokenize's Tokenizer) whose terms are the
// white-space-separated fields of the text (strings.Fields: unicode.IsSpace
// separates), unchanged.
type Fields struct{}

// Name is "fields".
func (Fields) Name() string { return "fields" }

// Tokens returns strings.Fields(text).
func (Fields) Tokens(text string) []string { return strings.Fields(text) }

// Analyze returns the terms of Tokens, each with its bytes [Start, End) of
// text.
func (Fields) Analyze(text string) []token.Token {
	var out []token.Token
	start := -1
	for i := 0; i <= len(text); {
		r, size := utf8.RuneError, 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch space := i == len(text) || unicode.IsSpace(r); {
		case space && start >= 0:
			out = append(out, token.Token{Term: text[start:i], Start: start, End: i})
			start = -1
		case !space && start < 0:
			start = i
		}
		i += size
	}
	return out
}
