package everyday_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/everyday"
)

// TestRunsAndForms: where one run of a script ends and the next begins,
// case folding of words outside the stemmer's reach, and the am/pm
// suffix's edges.
func TestRunsAndForms(t *testing.T) {
	kanji := terms([]string{"東京", "j:トウキョウ"}, reading("トウキョウ"), []string{"g:東京"})
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"capitalised stop words dropped", "A Dog And A Cat", []string{"dog", "cat"}},
		{"a word the stemmer leaves is folded: A", "Aω", []string{"aω"}},
		{"a word the stemmer leaves is folded: Z", "Zω", []string{"zω"}},
		{"a word with a non-Latin letter is not stemmed", "ωballs", []string{"ωballs"}},
		{"a stretched vowel keeps one ー in the stem", "ヤバーーー", []string{"ヤバー", "k:ヤバー"}}, // 5 runes: stripped to minKatakanaStem − 1 = 3
		{"katakana after kanji is a run of its own", "東京タワー", terms(kanji, []string{"タワー", "k:タワー"})},
		{"Latin after kanji is a run of its own", "東京cafe", terms(kanji, []string{"cafe"})},
		{"pm before a symbol", "7pm!", []string{"19:00"}},
		{"pm at the end", "7pm", []string{"19:00"}},
		// pmx is a word, with its loanword key (x reads K S)
		{"pm running on into a word is no pm", "7pmx", []string{"7", "pmx", "e:PMKS"}},
		{"午前", "午前7時", []string{"07:00"}},
		{"a time after other words", "at 12:30", []string{"12:30"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := newAnalyzer(t).Tokens(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Tokens(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestLongVowelStaysInTheRun: ー after hiragana or kanji continues the run,
// so it is read with the kana around it (ご|ー → r:ゴー, ー|い → r:ーイ).
func TestLongVowelStaysInTheRun(t *testing.T) {
	got := newAnalyzer(t).Tokens("すごーい")
	for _, want := range []string{everyday.ReadingPrefix + "ゴー", everyday.ReadingPrefix + "ーイ"} {
		if !slices.Contains(got, want) {
			t.Errorf("Tokens(すごーい) = %q, want it to hold %q", got, want)
		}
	}
}

// TestFallbackBigramSpansBothMorphemes: a kanji bigram covers the bytes of
// the morphemes of both its kanji: 車場 of 駐車|場 covers 駐車場.
func TestFallbackBigramSpansBothMorphemes(t *testing.T) {
	const text = "駐車場"
	want := map[string]string{everyday.FallbackPrefix + "駐車": "駐車", everyday.FallbackPrefix + "車場": "駐車場"}
	for _, tk := range newAnalyzer(t).Analyze(text) {
		if w, ok := want[tk.Term]; ok {
			if got := text[tk.Start:tk.End]; got != w {
				t.Errorf("%s covers %q, want %q", tk.Term, got, w)
			}
			delete(want, tk.Term)
		}
	}
	if len(want) > 0 {
		t.Errorf("terms missing: %v", want)
	}
}
