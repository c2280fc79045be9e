package everyday

import (
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize/kagome"
)

// The spelling field: a word written in katakana and the same word written
// in kanji or hiragana (ゴミ = ごみ, カギ = 鍵, ムリ = 無理, ダメ = 駄目), as chats
// spell native words either way. The reading field does not join them: a
// katakana word has no reading bigrams, so that a loanword never matches
// inside another (コート, チョコレート). Lucene's JapaneseReadingFormFilter
// reads every token as its katakana reading; here a word keeps its own
// terms and adds one key, its whole katakana spelling. A document indexes a
// katakana word under KatakanaSpellingPrefix (k:ゴミ) and an uninflected
// content morpheme of kanji or hiragana under ReadingSpellingPrefix, its
// reading in katakana (j:ゴミ for ごみ, j:カギ for 鍵); a question looks for
// each of its words' keys under the other prefix (AnalyzeQuestion), as the
// loanword field does: a katakana word of the question finds ごみ and 鍵,
// a kanji or hiragana word finds the katakana word, and words of one kind,
// which meet through their own fields, never meet here (橋 and 箸, both
// ハシ, do not).
const (
	KatakanaSpellingPrefix = "k:"
	ReadingSpellingPrefix  = "j:"
)

// minSpelling is the fewest characters a spelling key holds: one kana (日,
// ヒ; 目, メ) is too often another word.
const minSpelling = 2

// readingSpelling returns the spelling key of morpheme m of the base field
// (its term is term): its katakana reading, long vowel stemmed as a
// katakana word's, under ReadingSpellingPrefix; "" when m is inflected (its
// base form is not its surface: the reading is the inflected form's), has
// no reading or reads as fewer than minSpelling characters.
func readingSpelling(m kagome.Morpheme, term string) string {
	if term != m.Surface {
		return ""
	}
	var r string
	switch {
	case allKana(m.Surface):
		r = strings.Map(toKatakana, m.Surface)
	case m.Reading != "":
		r = m.Reading
	default:
		return ""
	}
	return spelling(ReadingSpellingPrefix, stemKatakana(r))
}

// spelling returns the spelling key of a katakana spelling under prefix
// (for a katakana word, the word long vowel stemmed), "" when it is shorter
// than minSpelling.
func spelling(prefix, kana string) string {
	if utf8.RuneCountInString(kana) < minSpelling {
		return ""
	}
	return prefix + kana
}
