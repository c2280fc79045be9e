package kagome

import (
	"slices"
	"strings"

	"github.com/ikawaha/kagome/v2/tokenizer"
	"golang.org/x/text/unicode/norm"
)

// Phrases returns the content phrases of text in order of first occurrence,
// each once: a maximal run of kept nouns (see the package doc) joined as
// written is one phrase (金沢 + 旅行 → 金沢旅行); a kept verb or adjective
// is a phrase of its own, in its dictionary base form. Analysis runs in
// kagome's normal mode, so compounds stay whole. Text is NFKC-normalised and
// phrases lowercased as Tokens does. nil when there are none.
func (t *Tokenizer) Phrases(text string) []string {
	var out []string
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			out = appendNew(out, strings.ToLower(run.String()))
			run.Reset()
		}
	}
	for _, tok := range t.analyzer.Analyze(norm.NFKC.String(text), tokenizer.Normal) {
		pos := tok.POS()
		kept := tok.Class != tokenizer.DUMMY && tok.Surface != "" && ContentWord(pos) && strings.ContainsFunc(tok.Surface, isWordRune)
		switch {
		case kept && pos[0] == "名詞":
			run.WriteString(tok.Surface)
		case kept:
			flush()
			word := tok.Surface
			if base, ok := tok.BaseForm(); ok && base != "" && base != "*" {
				word = base
			}
			out = appendNew(out, strings.ToLower(word))
		default:
			flush()
		}
	}
	flush()
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
