package kagome_test

import (
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/kagome"
	"github.com/linemem/linemem/lib/tokenize/token"
)

// TestAnalyzeMatchesTokens holds Analyze to Tokens: the same terms, each
// over the bytes of its morpheme as written.
func TestAnalyzeMatchesTokens(t *testing.T) {
	tok, err := kagome.New()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text  string
		first string // the bytes the first term covers
	}{
		{"ﾊﾞｰﾍﾞｷｭｰは１９時から、Ｔｅｎｎｉｓ Club!", "ﾊﾞｰﾍﾞｷｭｰ"},
		{"関西国際空港で買い物した", "関西"},
		{"会った人 ㍿ e\u0301clair", "会っ"},
	}
	for _, c := range cases {
		got := tok.Analyze(c.text)
		if terms, want := token.Terms(got), tok.Tokens(c.text); !slices.Equal(terms, want) {
			t.Errorf("%q: Analyze terms %q, Tokens %q", c.text, terms, want)
		}
		if len(got) == 0 || c.text[got[0].Start:got[0].End] != c.first {
			t.Errorf("%q: first term covers %+v, want %q", c.text, got, c.first)
		}
		for _, tk := range got {
			if tk.Start < 0 || tk.End > len(c.text) || tk.Start >= tk.End {
				t.Errorf("%q: %+v is no range of the text", c.text, tk)
			}
		}
	}
}
