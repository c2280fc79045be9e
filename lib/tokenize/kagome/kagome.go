// Package kagome tokenizes Japanese by morphological analysis with kagome v2
// and the IPA dictionary, keeping content words only.
//
// Choices, fixed here so results are comparable across runs:
//   - Input is NFKC-normalised first, so full-width letters and digits and
//     half-width katakana reach the analyser in one canonical form.
//   - Analysis runs in kagome's search mode, which splits long compounds
//     (関西国際空港 → 関西, 国際, 空港) the way a search query is likely to.
//   - Kept parts of speech: nouns (名詞) except pronouns (代名詞), dependent
//     nouns (非自立), suffixes (接尾) and 特殊; independent verbs (動詞,自立);
//     independent adjectives (形容詞,自立). Particles, auxiliaries, symbols,
//     adverbs, interjections, prefixes and conjunctions are dropped. Unknown
//     words (names, ASCII terms, numbers) are kept when the analyser guesses a
//     kept part of speech, which it does for most of them; a word without
//     any letter or digit (an ASCII "!" guessed to be a noun) is dropped.
//   - A kept word is emitted in its dictionary base form (会っ → 会う,
//     食べ → 食べる) when the dictionary has one, else as its surface; then
//     lowercased (Unicode simple case mapping).
//
// The dictionary takes about half a second and some 100 MB to load; it is
// loaded once per process, on the first call to New, and shared. The
// tokenizer is safe for concurrent use.
package kagome

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
	"github.com/linemem/linemem/lib/tokenize/token"
	"golang.org/x/text/unicode/norm"
)

// Name is the registry name of this tokenizer.
const Name = "kagome"

// Tokenizer is the IPA-dictionary morphological tokenizer.
type Tokenizer struct {
	analyzer *tokenizer.Tokenizer
}

var shared struct {
	once     sync.Once
	analyzer *tokenizer.Tokenizer
	err      error
}

// New returns the tokenizer, loading the IPA dictionary on first use.
func New() (*Tokenizer, error) {
	shared.once.Do(func() {
		shared.analyzer, shared.err = tokenizer.New(ipa.Dict(), tokenizer.OmitBosEos())
	})
	if shared.err != nil {
		return nil, fmt.Errorf("kagome: loading the IPA dictionary: %w", shared.err)
	}
	return &Tokenizer{analyzer: shared.analyzer}, nil
}

// Name returns Name.
func (*Tokenizer) Name() string { return Name }

// Tokens returns the content words of text in order, repeats kept; nil when
// there are none.
func (t *Tokenizer) Tokens(text string) []string {
	var out []string
	for _, tok := range t.analyzer.Analyze(norm.NFKC.String(text), tokenizer.Search) {
		if tok.Class == tokenizer.DUMMY || tok.Surface == "" {
			continue
		}
		if !ContentWord(tok.POS()) || !strings.ContainsFunc(tok.Surface, isWordRune) {
			continue
		}
		word := tok.Surface
		if base, ok := tok.BaseForm(); ok && base != "" && base != "*" {
			word = base
		}
		out = append(out, strings.ToLower(word))
	}
	return out
}

// ContentWord reports whether an IPA part-of-speech path names a kept word
// class (see the package doc): a noun that is not a pronoun (代名詞),
// dependent (非自立), suffix (接尾) or special (特殊), or an independent
// (自立) verb or adjective. An empty path is not.
func ContentWord(pos []string) bool {
	if len(pos) == 0 {
		return false
	}
	sub := ""
	if len(pos) > 1 {
		sub = pos[1]
	}
	switch pos[0] {
	case "名詞":
		switch sub {
		case "代名詞", "非自立", "接尾", "特殊":
			return false
		}
		return true
	case "動詞", "形容詞":
		return sub == "自立"
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Analyze returns the terms Tokens returns, each with the bytes of text its
// morpheme was read from. The text is normalised one NFKC segment at a
// time (norm.Iter), each normalised byte covering its segment's bytes.
func (t *Tokenizer) Analyze(text string) []token.Token {
	var b strings.Builder
	var from, to []int // by byte of the normalised text: its segment's bytes of text
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	pending := 0
	for start := 0; !it.Done(); {
		b.Write(it.Next())
		for len(from) < b.Len() {
			from, to = append(from, 0), append(to, 0)
		}
		if end := it.Pos(); end > start || it.Done() {
			for i := pending; i < len(from); i++ {
				from[i], to[i] = start, end
			}
			pending, start = len(from), end
		}
	}
	var out []token.Token
	for _, tok := range t.analyzer.Analyze(b.String(), tokenizer.Search) {
		if tok.Class == tokenizer.DUMMY || tok.Surface == "" {
			continue
		}
		if !ContentWord(tok.POS()) || !strings.ContainsFunc(tok.Surface, isWordRune) {
			continue
		}
		word := tok.Surface
		if base, ok := tok.BaseForm(); ok && base != "" && base != "*" {
			word = base
		}
		out = append(out, token.Token{Term: strings.ToLower(word), Start: from[tok.Position], End: to[tok.Position+len(tok.Surface)-1]})
	}
	return out
}
