package kagome_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/kagome"
)

func newTokenizer(t testing.TB) *kagome.Tokenizer {
	t.Helper()
	tok, err := kagome.New()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"particles and symbols only", "は、が。を！", nil},
		{"search mode splits compounds", "関西国際空港", []string{"関西", "国際", "空港"}},
		{"verbs and adjectives in base form", "会って美味しいラーメンを食べた", []string{"会う", "美味しい", "ラーメン", "食べる"}},
		{"suffixes and pronouns dropped", "私はケンタくんに会う", []string{"ケンタ", "会う"}},
		{"NFKC then lowercase", "ＵＳＢとusb", []string{"usb", "usb"}},
		{"single kanji noun kept", "雨が降る", []string{"雨", "降る"}},
		{"emoji dropped", "プレゼント😀", []string{"プレゼント"}},
	}
	tok := newTokenizer(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tok.Tokens(c.text); !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestTokensConcurrent(t *testing.T) {
	tok := newTokenizer(t)
	const text = "明日、京都駅で友達と待ち合わせて新幹線に乗る"
	want := tok.Tokens(text)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if got := tok.Tokens(text); !slices.Equal(got, want) {
					errs <- fmt.Sprintf("concurrent Tokens = %q, want %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func ExampleTokenizer_Tokens() {
	tok, err := kagome.New()
	if err != nil {
		panic(err)
	}
	fmt.Println(tok.Tokens("数学のテスト範囲を教えて"))
	// Output: [数学 テスト 範囲 教える]
}
