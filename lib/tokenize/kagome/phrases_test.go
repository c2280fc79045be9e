package kagome_test

import (
	"slices"
	"testing"
)

func TestPhrases(t *testing.T) {
	tok := newTokenizer(t)
	cases := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"のは？", nil},
		// 金沢 and 旅行 are adjacent nouns: one phrase; 引き受け is a verb in
		// base form; こと (非自立) and 何 (代名詞) end or skip runs.
		{"金沢旅行の準備で自分が引き受けたことは何？", []string{"金沢旅行", "準備", "自分", "引き受ける"}},
		{"ＡＢＣ会議とABC会議", []string{"abc会議"}},
	}
	for _, tc := range cases {
		if got := tok.Phrases(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Phrases(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
