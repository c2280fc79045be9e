package paperregex_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
)

func TestTokensConformance(t *testing.T) {
	var want map[string][]string
	conformance.ReadJSON(t, "expected_tokens.json", &want)
	if len(want) == 0 {
		t.Fatal("expected_tokens.json holds no cases")
	}
	tok := paperregex.New()
	for text, tokens := range want {
		t.Run(text, func(t *testing.T) {
			got := tok.Tokens(text)
			if !slices.Equal(got, tokens) && !(len(got) == 0 && len(tokens) == 0) {
				t.Errorf("Tokens(%q) = %q, want %q", text, got, tokens)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"only hiragana", "ありがとうございます", nil},
		{"mixed scripts", "明日Zoomでミーティング", []string{"明日", "zoom", "ミーティング"}},
		{"version string", "v1.2.3に更新", []string{"v1.2.3", "更新"}},
		{"trailing period", "see v2. ok.", []string{"see", "v2", "ok"}},
		{"double separator splits", "a..b a__b", []string{"a", "b", "a", "b"}},
		{"all separators", "foo_bar-baz.qux", []string{"foo_bar-baz.qux"}},
		{"leading separator", "-x1 .5", []string{"x1"}},
		{"long vowel runs", "ーー ラーメン ー", []string{"ーー", "ラーメン"}},
		{"middle dot splits katakana", "ジョン・スミス", []string{"ジョン", "スミス"}},
		{"single kanji dropped", "私 本 東京", []string{"東京"}},
		{"a and b kept, other letters dropped", "a b c z 1", []string{"a", "b"}},
		{"uppercase A and B", "A B", []string{"a", "b"}},
		{"stopwords", "LINEのトークで相談した内容 自分 何時", nil},
		{"stopword only as whole token", "ライン川 ラインナップ lines", []string{"ラインナップ", "lines"}},
		{"full-width letters and digits", "ＡＢＣ １２３", nil},
		{"half-width katakana", "ｶﾀｶﾅ", nil},
		{"emoji between kanji", "東京😀大阪", []string{"東京", "大阪"}},
		{"kanji iteration marks", "人々 々 〆切", []string{"人々", "〆切"}},
		{"non-ASCII uppercase untouched", "ÀBC", []string{"bc"}},
		{"katakana then kanji adjacent", "テスト範囲", []string{"テスト", "範囲"}},
		{"digits and letters", "2024年3月10日 12:30", []string{"2024", "10", "12", "30"}},
		{"repeats kept", "東京 東京", []string{"東京", "東京"}},
	}
	tok := paperregex.New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := tok.Tokens(c.text)
			if !slices.Equal(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestMatchesAgreesWithRegexp compares the hand-written scanner with Go's
// regexp package running Pattern on seeded random strings over an alphabet of
// boundary characters.
func TestMatchesAgreesWithRegexp(t *testing.T) {
	re := regexp.MustCompile(paperregex.Pattern)
	// Every edge of the pattern's ranges, with its neighbours outside.
	alphabet := []rune("aZz09._-/ ーァヺ・ヿ゠ア々〆一龥㐀䶿豈﫿丂あ😀Ａｶ\u3004\u3007\x00é" +
		"\u30A0\u30A1\u30FA\u30FB\u30FC\u30FD\u33FF\u3400\u4DBF\u4DC0\u4DFF\u4E00\u9FFF\uA000\uF8FF\uF900\uFAFF\uFB00")
	rng := rand.New(rand.NewPCG(4, 20))
	for i := range 20000 {
		n := rng.IntN(12)
		var sb strings.Builder
		for range n {
			sb.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		lower := strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, text)
		want := re.FindAllString(lower, -1)
		got := paperregex.Matches(text)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: Matches(%q) = %q, regexp gives %q", i, text, got, want)
		}
	}
}

func ExampleTokenizer_Tokens() {
	tok := paperregex.New()
	fmt.Println(tok.Tokens("明日LINEで東京タワーの件、v1.2.3を確認。a案とB案"))
	// Output: [明日 東京 タワー v1.2.3 確認 a b]
}

// specStopwords is spec §8 step 3, copied from the spec's text.
const specStopwords = "line ライン トーク 会話 話題 相談 要約 内容 自分 私達 僕達 何時 何回 何度 何人 何処"

func TestStopwordsAreSpecSection8(t *testing.T) {
	want := strings.Fields(specStopwords)
	if !slices.Equal(paperregex.Stopwords, want) {
		t.Errorf("Stopwords = %q, want spec §8's %q", paperregex.Stopwords, want)
	}
	tok := paperregex.New()
	for _, w := range want {
		// Each stopword is a token of its own when it stands alone, so only
		// the stopword rule can remove it.
		if got := tok.Tokens(w + " テスト"); !slices.Equal(got, []string{"テスト"}) {
			t.Errorf("Tokens(%q) = %q, want [テスト]: the stopword is not removed", w+" テスト", got)
		}
		if matches := paperregex.Matches(w); !slices.Equal(matches, []string{w}) {
			t.Errorf("Matches(%q) = %q: the pattern does not produce the stopword as one token", w, matches)
		}
	}
}

func TestAnalyze(t *testing.T) {
	text := "明日LINEで東京タワーの件、V1.2.3を確認"
	var got []string
	for _, tk := range paperregex.New().Analyze(text) {
		got = append(got, tk.Term+"="+text[tk.Start:tk.End])
	}
	want := []string{"明日=明日", "東京=東京", "タワー=タワー", "v1.2.3=V1.2.3", "確認=確認"}
	if !slices.Equal(got, want) {
		t.Errorf("Analyze(%q) = %q, want %q", text, got, want)
	}
	if toks := paperregex.New().Analyze("の、😀"); toks != nil {
		t.Errorf("no terms: %+v, want nil", toks)
	}
}
