package expand

import (
	"context"
	"slices"
)

// LightVerbs are verbs too general to anchor a sub-query; Phrases drops them.
var LightVerbs = []string{"する", "なる", "ある", "いる", "できる", "やる", "思う", "言う"}

// PhraseSource splits a text into content phrases in order of first
// occurrence (lib/tokenize/kagome's Tokenizer.Phrases).
type PhraseSource interface {
	Phrases(text string) []string
}

// Phrases makes content-word sub-queries: the question's phrases p_1 … p_n
// (runs of nouns and independent verbs and adjectives, PhraseSource), light
// verbs removed; the first phrase, usually the topic, is paired with each
// other one:
//
//	sub-queries = { p_1 + " " + p_i : i = 2 … n }
//
// so each sub-query asks about one aspect of the topic. A question with
// fewer than two phrases gets none.
type Phrases struct {
	Source PhraseSource
}

// Name returns NamePhrases.
func (Phrases) Name() string { return NamePhrases }

// Expand implements QueryExpander.
func (p Phrases) Expand(_ context.Context, query string) ([]string, error) {
	ps := slices.DeleteFunc(p.Source.Phrases(query), func(s string) bool { return slices.Contains(LightVerbs, s) })
	if len(ps) < 2 {
		return nil, nil
	}
	out := make([]string, 0, len(ps)-1)
	for _, other := range ps[1:] {
		out = append(out, ps[0]+" "+other)
	}
	return out, nil
}
