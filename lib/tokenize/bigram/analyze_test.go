package bigram_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/tokenize/bigram"
	"github.com/linemem/linemem/lib/tokenize/token"
)

func TestAnalyze(t *testing.T) {
	cases := []struct {
		name, text string
		want       []token.Token
	}{
		{"empty", "", nil},
		{"half-width katakana covers its bytes as written", "ﾊﾞｰ", []token.Token{{Term: "バー", Start: 0, End: len("ﾊﾞｰ")}}},
		{"one kanji", "雨!", []token.Token{{Term: "雨", Start: 0, End: 3}}},
		{"two runs", "ＵＳＢ 保険証", []token.Token{
			{Term: "us", Start: 0, End: 6}, {Term: "sb", Start: 3, End: 9},
			{Term: "保険", Start: 10, End: 16}, {Term: "険証", Start: 13, End: 19},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := bigram.New().Analyze(c.text); !slices.Equal(got, c.want) {
				t.Errorf("Analyze(%q) = %+v, want %+v", c.text, got, c.want)
			}
		})
	}
}

// TestAnalyzeRandom holds Analyze to Tokens: the same terms, each covering
// bytes of the text in order, for every valid UTF-8 text.
func TestAnalyzeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tok := bigram.New()
	for range 20000 {
		text := randomText(rng, rng.IntN(40))
		if !utf8.ValidString(text) {
			continue
		}
		got := tok.Analyze(text)
		if terms, want := token.Terms(got), tok.Tokens(text); !slices.Equal(terms, want) {
			t.Fatalf("Analyze(%+q) terms = %+q, want Tokens %+q", text, terms, want)
		}
		for i, tk := range got {
			if tk.Start < 0 || tk.End > len(text) || tk.Start >= tk.End || i > 0 && tk.Start < got[i-1].Start {
				t.Fatalf("Analyze(%+q)[%d] = %+v: not an ordered range of the text", text, i, tk)
			}
		}
	}
}
