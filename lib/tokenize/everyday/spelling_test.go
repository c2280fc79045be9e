package everyday_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// TestSpellingsMeetAcrossScripts: a word written in katakana in the
// question finds it written in kanji or hiragana in a text, and the other
// way round, through one shared spelling key (the question's key under the
// other kind's prefix), the word's reading.
func TestSpellingsMeetAcrossScripts(t *testing.T) {
	a := newAnalyzer(t)
	for _, c := range []struct{ reading, katakana, other string }{
		{"ゴミ", "ゴミ", "ごみ"},
		{"カギ", "カギ", "鍵"},
		{"ムリ", "ムリ", "無理"},
		{"ダメ", "ダメ", "駄目"},
		{"ダメ", "ダメ", "だめ"},
		{"キレイ", "キレイ", "綺麗"},
		{"ウソ", "ウソ", "嘘"},
		{"カイモノ", "カイモノ", "買い物"},
		{"カギ", "ｶｷﾞ", "かぎ"}, // half-width katakana folded first
	} {
		meetThroughOneKey(t, a, c.reading, c.katakana, c.other)
	}
}

// TestSpellingKeysApart: a spelling key never joins two words of one kind
// (橋 and 箸, both ハシ, share reading bigrams only; 鍵 and かぎ meet through
// the reading field; a katakana word meets itself as a word), an inflected word has no key (its reading is the
// inflected form's), and a one-kana reading is no key.
func TestSpellingKeysApart(t *testing.T) {
	a := newAnalyzer(t)
	isKey := func(term string) bool {
		return strings.HasPrefix(term, everyday.KatakanaSpellingPrefix) || strings.HasPrefix(term, everyday.ReadingSpellingPrefix)
	}
	for _, pair := range [][2]string{{"橋", "箸"}, {"ゴミ", "ゴミ"}, {"鍵", "かぎ"}} {
		for _, p := range [][2]string{pair, {pair[1], pair[0]}} {
			if got := shared(a, p[0], p[1]); slices.ContainsFunc(got, isKey) {
				t.Errorf("question %q, text %q share %q, want no spelling key", p[0], p[1], got)
			}
		}
	}
	for _, text := range []string{"行った", "食べた", "日", "目"} {
		if got := a.Tokens(text); slices.ContainsFunc(got, isKey) {
			t.Errorf("Tokens(%q) = %q, want no spelling key", text, got)
		}
	}
}
