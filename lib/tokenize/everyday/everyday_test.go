package everyday_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/everyday"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"stop words dropped, words stemmed", "What do I need to bring to tennis?", []string{"need", "bring", "tenni"}},
		{"plural and tense share a stem", "Bring the balls, I brought mine", []string{"bring", "ball", "brought", "mine"}},
		{"case folded", "LUNCH at Kanda", []string{"lunch", "kanda"}},
		{"full-width Latin and digits", "ＵＳＢ　１９時", []string{"usb", "19", "時"}},
		{"half-width katakana as full-width bigrams", "ﾊﾞｰﾍﾞｷｭｰ", []string{"バー", "ーベ", "ベキ", "キュ", "ュー"}},
		{"CJK run of n gives n-1 bigrams", "保険証", []string{"保険", "険証"}},
		{"lone CJK character is a term", "鍋 は？", []string{"鍋", "は"}},
		{"numbers split from letters", "call 1:02, mp3 5pm", []string{"call", "1", "02", "mp", "3", "5", "pm"}},
		{"apostrophe splits; s and t are stop words", "Ken's phone, don't", []string{"ken", "phone"}},
		{"emoji and punctuation not indexed", "🎾!!! ok👍", []string{"ok"}},
		{"script change ends a run", "iPhoneの充電", []string{"iphon", "の充", "充電"}},
		{"no terms", "…！？ 😀", nil},
	}
	a := everyday.New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := a.Tokens(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestTermsPointIntoOriginal checks that every term's range is a slice of
// the text as written, which read through the analyzer again gives the term.
func TestTermsPointIntoOriginal(t *testing.T) {
	texts := []string{
		"ﾊﾞｰﾍﾞｷｭｰは１９時から、Ｔｅｎｎｉｓ Club!",
		"Bringing BALLS to the court 🎾 at 10am",
		"ｲﾀﾘｱﾝ行こ〜 e\u0301clair",
	}
	a := everyday.New()
	for _, text := range texts {
		for _, term := range a.Terms(text) {
			if term.Start < 0 || term.End > len(text) || term.Start >= term.End {
				t.Fatalf("%q: term %q has range [%d,%d)", text, term.Text, term.Start, term.End)
			}
			got := a.Tokens(text[term.Start:term.End])
			if len(got) == 0 || got[0] != term.Text {
				t.Errorf("%q: term %q at [%d,%d) = %q reads as %q", text, term.Text, term.Start, term.End, text[term.Start:term.End], got)
			}
		}
	}
}

func TestWidthFoldedRanges(t *testing.T) {
	text := "明日ﾊﾞｰﾍﾞｷｭｰ"
	terms := everyday.New().Terms(text)
	last := terms[len(terms)-1]
	if want := "ｭｰ"; text[last.Start:last.End] != want || last.Text != "ュー" {
		t.Errorf("last term %q covers %q, want ュー over %q", last.Text, text[last.Start:last.End], want)
	}
}

func ExampleAnalyzer_Terms() {
	text := "Ｂｒｉｎｇ balls, ﾊﾞｰﾍﾞｷｭｰ"
	for _, t := range everyday.New().Terms(text) {
		fmt.Printf("%s %q\n", t.Text, text[t.Start:t.End])
	}
	// Output:
	// bring "Ｂｒｉｎｇ"
	// ball "balls"
	// バー "ﾊﾞｰ"
	// ーベ "ｰﾍﾞ"
	// ベキ "ﾍﾞｷ"
	// キュ "ｷｭ"
	// ュー "ｭｰ"
}
