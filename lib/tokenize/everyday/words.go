package everyday

import (
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/linemem/linemem/lib/tokenize/token"
)

// word appends the terms of a run of letters: nothing for an English stop
// word; else its Snowball English stem and its loanword key (latinKey) when
// every letter is ASCII, else the run as written.
func word(out []token.Token, run []char) []token.Token {
	w := runText(run)
	if english.IsStopWord(w) {
		return out
	}
	if !latin(w) {
		return append(out, span(run, w))
	}
	out = append(out, span(run, english.Stem(w, true)))
	if isASCII(w) {
		if p := phonetic(LatinKeyPrefix, latinKey(w)); p != "" {
			out = append(out, span(run, p))
		}
	}
	return out
}

// latin reports whether every letter of word is of the Latin script, the
// words the English stemmer is for.
func latin(word string) bool {
	for _, r := range word {
		if r >= utf8.RuneSelf && !unicode.Is(unicode.Latin, r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

// minKatakanaStem is the shortest katakana word whose trailing long-vowel
// marks are removed, Lucene's JapaneseKatakanaStemFilter default: コーヒー
// (4) → コーヒ, but ビー (2) stays.
const minKatakanaStem = 4

// stemKatakana removes the trailing long-vowel marks ー of a katakana word
// of at least minKatakanaStem characters, keeping at least
// minKatakanaStem−1 (ヤバーーー → ヤバー: a stretched vowel of chat meets the word).
func stemKatakana(w string) string {
	n := utf8.RuneCountInString(w)
	for n >= minKatakanaStem && len(w) >= 3 && w[len(w)-3:] == "ー" {
		w = w[:len(w)-3]
		n--
	}
	return w
}
