package memory_test

import (
	"testing"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

func TestMarkerSpans(t *testing.T) {
	cases := []struct {
		name, tok, question, text string
		want                      []string // marked text as written
	}{
		{"whole Latin words, stems compared", "everyday", "bring balls", "Bringing the ball, I brought it", []string{"Bringing", "ball"}},
		{"no fragment of a word", "everyday", "what do I need to bring to tennis", "Photo: Ken joined the group", nil},
		{"width-folded katakana marked as written", "everyday", "バーベキュー", "来週のﾊﾞｰﾍﾞｷｭｰどうする？", []string{"ﾊﾞｰﾍﾞｷｭｰ"}},
		{"full-width digits; 時 inside a longer run is no term", "everyday", "19時", "１９時まで使える", []string{"１９"}},
		{"overlapping bigrams merge", "everyday", "保険証", "保険証は玄関", []string{"保険証"}},
		{"a lone hiragana pair is not marked", "everyday", "鍋に何を買えばいい", "充電やばい", nil},
		{"a lone pair beside another mark is dropped", "everyday", "店どこに変わった", "振込先変わったって連絡あった", []string{"変わった"}},
		{"two pairs in a hiragana message are marked", "everyday", "鍋に何を買えばいい", "おなべに なにを かえば いい？", []string{"えば", "いい"}},
		{"other tokenizers: terms as written", "char-bigram", "tennis", "Photo", nil},
		{"char-bigram marks fragments", "char-bigram", "go to", "Photo", []string{"to"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tok, err := tokenize.New(c.tok)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range memory.NewMarker(tok, c.question).Spans(c.text) {
				got = append(got, c.text[s.Start:s.End])
			}
			if len(got) != len(c.want) {
				t.Fatalf("marks %q, want %q", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("marks %q, want %q", got, c.want)
				}
			}
		})
	}
}
