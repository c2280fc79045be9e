package bigram_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/bigram"
)

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"only punctuation and emoji", "、。！😀 ?", nil},
		{"kanji run", "東京都", []string{"東京", "京都"}},
		{"single character run", "雨 が", []string{"雨", "が"}},
		{"mixed scripts form one run", "東京タワー", []string{"東京", "京タ", "タワ", "ワー"}},
		{"punctuation separates runs", "数学、テスト", []string{"数学", "テス", "スト"}},
		{"NFKC full-width and lowercase", "ＵＳＢ", []string{"us", "sb"}},
		{"NFKC half-width katakana", "ｶﾀｶﾅ", []string{"カタ", "タカ", "カナ"}},
		{"digits", "2024年", []string{"20", "02", "24", "4年"}},
		{"iteration mark is a letter", "人々", []string{"人々"}},
		{"dotted version splits", "v1.2", []string{"v1", "2"}},
		{"repeats kept", "あああ", []string{"ああ", "ああ"}},
	}
	tok := bigram.New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tok.Tokens(c.text); !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func ExampleTokenizer_Tokens() {
	fmt.Println(bigram.New().Tokens("京都駅、ＡＢ"))
	// Output: [京都 都駅 ab]
}
