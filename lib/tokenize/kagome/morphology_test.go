package kagome_test

import (
	"fmt"
	"testing"

	"github.com/linemem/linemem/lib/tokenize/kagome"
)

func TestMorphemes(t *testing.T) {
	m, err := kagome.NewMorphology()
	if err != nil {
		t.Fatal(err)
	}
	text := "駐車場に車を停めた"
	want := []string{ // surface [start,end) POS[0] base reading known
		"駐車 [0,6) 名詞 駐車 チュウシャ true",
		"場 [6,9) 名詞 場 ジョウ true",
		"に [9,12) 助詞 に ニ true",
		"車 [12,15) 名詞 車 クルマ true",
		"を [15,18) 助詞 を ヲ true",
		"停め [18,24) 動詞 停める トメ true",
		"た [24,27) 助動詞 た タ true",
	}
	got := m.Morphemes(text)
	if len(got) != len(want) {
		t.Fatalf("Morphemes(%q) = %+v, want %d morphemes", text, got, len(want))
	}
	for i, mo := range got {
		if s := fmt.Sprintf("%s [%d,%d) %s %s %s %v", mo.Surface, mo.Start, mo.End, mo.POS[0], mo.Base, mo.Reading, mo.Known); s != want[i] {
			t.Errorf("morpheme %d = %s, want %s", i, s, want[i])
		}
	}
	if got := m.Morphemes(""); len(got) != 0 {
		t.Errorf("Morphemes(\"\") = %+v, want none", got)
	}
	unknown := m.Morphemes("ゃじょうにとめた")
	if len(unknown) == 0 || unknown[0].Known || unknown[0].Base != "" || unknown[0].Reading != "" {
		t.Errorf("an unknown word: %+v, want Known false and no base form or reading", unknown)
	}
}
