// Package tokenize names the tokenizers that BM25 can use and builds them by
// name. Each tokenizer lives in its own subpackage with a const Name:
//
//   - paperregex ("paper-regex", Default): the paper's regular-expression
//     tokenizer, exactly spec §8;
//   - kagome ("kagome"): morphological analysis with the IPA dictionary,
//     content words in base form;
//   - bigram ("char-bigram"): NFKC, lowercase, overlapping character 2-grams;
//   - everyday ("everyday"): Lucene's JapaneseAnalyzer model with kagome:
//     width folding, content morphemes in base form, whole katakana words,
//     a reading field and a kanji-bigram fallback field, English words
//     stop-listed and stemmed, numbers, times and dates in one form each.
//
// Every tokenizer says where each term was read from (Analyze).
//
// Queries and documents must go through the same tokenizer.
package tokenize

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/tokenize/bigram"
	"github.com/linemem/linemem/lib/tokenize/everyday"
	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
	"github.com/linemem/linemem/lib/tokenize/token"
)

// Token is a term with the bytes [Start, End) of the original text it was
// read from (bleve's Token{Term, Start, End}).
type Token = token.Token

// Tokenizer turns a text into index terms. Implementations are safe for
// concurrent use.
type Tokenizer interface {
	// Name is the registry name, recorded with results.
	Name() string
	// Tokens returns the terms of text in order, repeats kept.
	Tokens(text string) []string
	// Analyze returns the terms Tokens returns, in the same order, each
	// with the bytes of text it was read from, so that a match can be
	// marked in the text as written.
	Analyze(text string) []Token
}

// QueryTokenizer is a Tokenizer whose questions are tokenized otherwise
// than its documents: the everyday analyzer repeats each question term by
// its field's weight. lib/bm25 searches with QueryTokens when the index's
// tokenizer has it.
type QueryTokenizer interface {
	QueryTokens(text string) []string
}

// QueryTokens returns the terms a search for text uses under tok:
// QueryTokens when tok is a QueryTokenizer, else Tokens.
func QueryTokens(tok Tokenizer, text string) []string {
	if q, ok := tok.(QueryTokenizer); ok {
		return q.QueryTokens(text)
	}
	return tok.Tokens(text)
}

// FieldNamer is a Tokenizer whose terms belong to named fields (the
// everyday analyzer's reading and kanji bigrams, loanword and spelling
// keys), so that an explanation of a score can say which field a term is
// of.
type FieldNamer interface {
	// FieldName names the field of term; "" for the base field.
	FieldName(term string) string
}

// FieldName returns tok's name for the field of term: "" when tok has no
// fields (is no FieldNamer) or term is of the base field.
func FieldName(tok Tokenizer, term string) string {
	if f, ok := tok.(FieldNamer); ok {
		return f.FieldName(term)
	}
	return ""
}

// QuestionAnalyzer is a Tokenizer that reads a question otherwise than a
// document: under the everyday analyzer a loanword's key looks for words of
// the other script (a katakana word in the question for an English word in
// the text, and the other way round), and a spelling key for the same word
// in the other kind of script (ゴミ for ごみ or 塵, 鍵 for カギ), never for
// words of its own.
type QuestionAnalyzer interface {
	AnalyzeQuestion(text string) []Token
}

// QuestionTerms returns the terms of a question under tok, with the bytes
// of the question each was read from: AnalyzeQuestion when tok is a
// QuestionAnalyzer, else Analyze. Whatever matches, marks or weighs a
// question's terms against documents reads them with this.
func QuestionTerms(tok Tokenizer, text string) []Token {
	if q, ok := tok.(QuestionAnalyzer); ok {
		return q.AnalyzeQuestion(text)
	}
	return tok.Analyze(text)
}

// QuestionTokens returns the terms of QuestionTerms, in order.
func QuestionTokens(tok Tokenizer, text string) []string {
	if _, ok := tok.(QuestionAnalyzer); ok {
		return token.Terms(QuestionTerms(tok, text))
	}
	return tok.Tokens(text)
}

// Default is the tokenizer of the paper's BM25 retrievers.
const Default = paperregex.Name

var registry = []struct {
	name string
	make func() (Tokenizer, error)
}{
	{paperregex.Name, func() (Tokenizer, error) { return paperregex.New(), nil }},
	{kagome.Name, func() (Tokenizer, error) { return kagome.New() }},
	{bigram.Name, func() (Tokenizer, error) { return bigram.New(), nil }},
	{everyday.Name, func() (Tokenizer, error) { return everyday.New() }},
}

// Names lists the known tokenizer names, Default first.
func Names() []string {
	names := make([]string, len(registry))
	for i, r := range registry {
		names[i] = r.name
	}
	return names
}

// ReproduceNames lists the tokenizers that `reproduce` compares in its
// tokenizer table (lib/beyond) and records in its parameters, Default
// first: every tokenizer but everyday, which was added for everyday search
// after that table was fixed, so reproduce's outputs stay as they were.
func ReproduceNames() []string {
	var names []string
	for _, n := range Names() {
		if n != everyday.Name {
			names = append(names, n)
		}
	}
	return names
}

// Or is the one rule for an empty tokenizer name: it returns name, or def
// when name is "". Options that leave the tokenizer empty mean their
// context's default: Protocol for the paper's protocol (New,
// lib/retrieval, lib/experiment), memory.EverydayTokenizer for everyday
// search, the local embedder's own for lib/provider/lsa.
func Or(name, def string) string {
	if name == "" {
		return def
	}
	return name
}

// Protocol is the one rule for an empty tokenizer name in the paper's
// protocol (eval, sweep, reproduce, lib/retrieval's Builder): name, or
// Default when name is "".
func Protocol(name string) string { return Or(name, Default) }

// New returns the tokenizer called name; "" means Default (Protocol). An
// unknown name is an error that lists the known ones.
func New(name string) (Tokenizer, error) {
	name = Protocol(name)
	for _, r := range registry {
		if r.name == name {
			return r.make()
		}
	}
	return nil, fmt.Errorf("unknown tokenizer %q; known: %s", name, strings.Join(Names(), ", "))
}
