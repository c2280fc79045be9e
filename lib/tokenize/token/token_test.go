package token_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/tokenize/token"
)

func ExampleTerms() {
	text := "ﾊﾞｰ 19時"
	toks := []token.Token{{Term: "バー", Start: 0, End: 9}, {Term: "19:00", Start: 10, End: 15}}
	for _, t := range toks {
		fmt.Printf("%s %q\n", t.Term, text[t.Start:t.End])
	}
	fmt.Println(token.Terms(toks), token.Terms(nil) == nil)
	// Output:
	// バー "ﾊﾞｰ"
	// 19:00 "19時"
	// [バー 19:00] true
}
