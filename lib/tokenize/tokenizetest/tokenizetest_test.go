package tokenizetest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

var _ tokenize.Tokenizer = tokenizetest.Fields{}

func TestFields(t *testing.T) {
	for _, text := range []string{"", "  ", "a", " apple  banana\tcherry\n", "旅行\u3000京都 2023", "x\r\ny"} {
		toks := tokenizetest.Fields{}.Analyze(text)
		var terms []string
		for _, tok := range toks {
			if text[tok.Start:tok.End] != tok.Term {
				t.Errorf("%q: token %+v does not hold its bytes", text, tok)
			}
			terms = append(terms, tok.Term)
		}
		if want := (tokenizetest.Fields{}).Tokens(text); !slices.Equal(terms, want) {
			t.Errorf("%q: Analyze terms %q, Tokens %q", text, terms, want)
		}
	}
}

func ExampleFields_Analyze() {
	for _, tok := range (tokenizetest.Fields{}).Analyze("apple  banana") {
		fmt.Println(tok.Term, tok.Start, tok.End)
	}
	// Output:
	// apple 0 5
	// banana 7 13
}
