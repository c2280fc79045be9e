package memory_test

import (
	"slices"
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
		{"a katakana word never inside another", "everyday", "コート", "チョコレート買った、コートも", []string{"コート"}},
		{"a time in another form", "everyday", "19時", "１９時まで使える、7pmでもいい", []string{"１９時", "7pm"}},
		{"a number with digit groups", "everyday", "3000円", "３，０００円だった", []string{"３，０００円"}},
		{"the morpheme, not its auxiliary", "everyday", "店どこに変わった", "振込先変わったって連絡あった", []string{"変わっ"}},
		{"kanji question, hiragana text", "everyday", "駐車場", "ちゅうしゃじょうにとめた", []string{"ちゅうしゃじょう"}},
		{"a lone kana pair read like the question's is not marked", "everyday", "鍋に何を買えばいい", "おなべに なにを かえば いい？", nil},
		{"a lone particle is never marked", "everyday", "旅行の準備", "それの話", nil},
		// 誕生日 reads タンジョウビ, five bigrams; きゅうりょうび and きちじょうじ
		// hold two of them
		{"two kana pairs of a five-pair reading are not marked", "everyday", "誕生日いつ", "きゅうりょうびのあと きちじょうじで だいじょうぶ", nil},
		// 了解 (リョウカイ) holds two of the three pairs of 料理 (リョウリ),
		// but a kanji word that shares none of the question's kanji is
		// another word read alike
		{"a kanji word read alike is not marked", "everyday", "タイ料理", "19日ね、了解", nil},
		{"the whole reading is", "everyday", "誕生日いつ", "たんじょうびは5日", []string{"たんじょうび"}},
		// 映画 reads エイガ, two pairs, both held
		{"a two-pair reading in kana", "everyday", "映画", "えいがみた", []string{"えいが"}},
		// 先生 reads センセイ, three pairs; せんせ holds two, exactly two thirds
		{"two of a three-pair reading in kana", "everyday", "先生", "せんせがいった", []string{"せんせ"}},
		// r:カイ and r:イモ, two of 買い物's three pairs, cover かい, which
		// read alone is a particle
		{"kana that read alone as a particle are not", "everyday", "買い物", "かいもの どうする", nil},
		// 鍵 and かぎ share their spelling key, カギ: one reading pair, too
		// few for a mark of reading pairs alone
		{"a kana word for the question's kanji word, whole", "everyday", "鍵どこ", "自転車のかぎがない", []string{"かぎ"}},
		{"a kanji word for the question's kana word, whole", "everyday", "かぎ", "鍵、玄関のポストに入れといた", []string{"鍵"}},
		{"a short word in kana", "everyday", "嘘", "え、うそ、もう全部？", []string{"うそ"}},
		{"two kanji words read alike are not marked", "everyday", "橋", "箸わすれた", nil},
		// ほけんしょう, cut by the dictionary into ほけ, ん, しょう, reads
		// ホケンショウ: 保険証 holds all five of its pairs
		{"a kanji word for the question's kana word the dictionary cuts", "everyday", "ほけんしょう", "保険証は引き出しの中", []string{"保険証"}},
		// 温泉 holds three of the six pairs of おんせんりょこう, 旅行 three
		{"kanji words for parts of a kana compound", "everyday", "おんせんりょこう いつだっけ", "雨でも温泉は入れるし、旅行は行こう", []string{"温泉", "旅行"}},
		// 了解 holds two of the three pairs of りょうり: two are as often
		// another word read alike
		{"two pairs of a kana question word are not a kanji word", "everyday", "りょうり", "19日ね、了解", nil},
		{"other tokenizers: their own terms", "char-bigram", "tennis", "Photo", nil},
		{"char-bigram marks fragments", "char-bigram", "go to", "Photo", []string{"to"}},
		{"paper-regex marks its matches", "paper-regex", "東京タワー", "東京タワーの件", []string{"東京タワー"}},
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

// TestMarkerTermsLongestFirst: the question's distinct terms, longest
// first, in question order within a length (the literal fallback tries
// them in this order).
func TestMarkerTermsLongestFirst(t *testing.T) {
	tok := newEveryday(t)
	// elephant is the stem eleph and the loanword key p:RHNT; cat once,
	// before dog, as in the question (terms of one length keep its order)
	want := []string{"p:RHNT", "eleph", "cat", "dog"}
	if got := memory.NewMarker(tok, "cat elephant cat dog").Terms(); !slices.Equal(got, want) {
		t.Errorf("Terms() = %q, want %q", got, want)
	}
}
