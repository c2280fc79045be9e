package bigram_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

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

// reference is Tokens as the package doc states it, with the standard
// library's case mapping and character classes for every character.
func reference(text string) []string {
	s := strings.ToLower(norm.NFKC.String(text))
	var out []string
	var run []int
	flush := func(end int) {
		switch len(run) {
		case 0:
		case 1:
			out = append(out, s[run[0]:end])
		default:
			for i := 0; i+1 < len(run); i++ {
				stop := end
				if i+2 < len(run) {
					stop = run[i+2]
				}
				out = append(out, s[run[i]:stop])
			}
		}
		run = run[:0]
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) {
			run = append(run, i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// TestTokensEveryCharacter checks Tokens against reference on every Unicode
// code point, in runs of consecutive code points with and without an
// upper-case letter, a space and kana between them, and on bytes that are
// not UTF-8.
func TestTokensEveryCharacter(t *testing.T) {
	tok := bigram.New()
	const span = 128
	for lo := rune(0); lo <= unicode.MaxRune; lo += span {
		var plain, mixed strings.Builder
		for r := lo; r < lo+span && r <= unicode.MaxRune; r++ {
			plain.WriteRune(r)
			mixed.WriteRune(r)
			switch r % 5 {
			case 0:
				mixed.WriteByte(' ')
			case 1:
				mixed.WriteString("あ")
			case 2:
				mixed.WriteString("Q")
			}
		}
		for _, text := range []string{plain.String(), mixed.String()} {
			if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
				t.Fatalf("code points %U…: Tokens = %q, want %q", lo, got, want)
			}
		}
	}
	for _, text := range []string{"ab\xffcd", "漢字\xe3\x81", "\xc0\xaf東京", "東京\uFFFD都", "ABC漢字", "漢字é"} {
		if got, want := tok.Tokens(text), reference(text); !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", text, got, want)
		}
	}
}
