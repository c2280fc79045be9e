package memory_test

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

func TestConfidenceOf(t *testing.T) {
	tok := newEveryday(t)
	ix := bm25.New([]bm25.Doc{
		{ID: "a", Text: "bring balls to the court"},
		{ID: "b", Text: "lunch at Kanda"},
		{ID: "c", Text: "bring sunscreen"},
		{ID: "d", Text: "プロジェクターは倉庫"},
	}, tok)
	idf := func(df int) float64 { return bm25.IDF(4, df) }
	cases := []struct {
		name, question, top string // top: the top window's ID
		want                float64
	}{
		{"every term held", "bring balls", "a", 1},
		{"one of two", "bring balls", "c", idf(2) / (idf(2) + idf(1))},
		{"a term in no document weighs most", "bring golf", "c", idf(2) / (idf(2) + idf(0))},
		{"a loanword written in the other script holds its word", "projector", "d", 1},
		{"a loanword key the window lacks does not count", "bring projector", "c", idf(2) / (idf(2) + idf(0))},
		{"stop words only", "what is the", "c", 0},
		{"a window not in the index", "bring", "z", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := memory.ConfidenceOf(ix, tok, c.question, c.top); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("ConfidenceOf(%q, %q) = %v, want %v", c.question, c.top, got, c.want)
			}
		})
	}
}

// TestQuestionWords: each base term opens a word and its reading, kanji
// bigram and loanword terms join it; a field term that overlaps no base
// term is a word of its own, and a term read twice stays in the first word
// that read it.
func TestQuestionWords(t *testing.T) {
	tok := newEveryday(t)
	cases := []struct {
		question string
		want     [][]string
	}{
		{"司会", [][]string{{"司会", "k:シカイ", "r:シカ", "r:カイ", "g:司会"}}}, // k:シカイ: its spelling key, as a question looks for it
		{"projector", [][]string{{"projector", "p:PRSKT"}}},
		{"bring balls", [][]string{{"bring", "p:BRNG"}, {"ball", "p:BRS"}}},
		// 会 of 忘年会 is no content term: its reading r:カイ is a word of
		// its own, which 司会 then does not repeat; r:ンカ and g:年会,
		// across 忘年|会, join 忘年
		{"忘年会 司会", [][]string{
			{"忘年", "k:ボウネン", "r:ボウ", "r:ウネ", "r:ネン", "r:ンカ", "g:忘年", "g:年会"},
			{"r:カイ"},
			{"司会", "k:シカイ", "r:シカ", "g:司会"},
		}},
		// written together, r:カイ of 会 ends where 司会 begins: touching
		// is not overlapping, so it is still a word of its own; r:イシ and
		// g:会司, across 会|司会, join 司会
		{"忘年会司会", [][]string{
			{"忘年", "k:ボウネン", "r:ボウ", "r:ウネ", "r:ネン", "r:ンカ", "g:忘年", "g:年会"},
			{"r:カイ"},
			{"司会", "r:イシ", "g:会司", "k:シカイ", "r:シカ", "g:司会"},
		}},
	}
	for _, c := range cases {
		if got := memory.QuestionWords(tok, c.question); !reflect.DeepEqual(got, c.want) {
			t.Errorf("QuestionWords(%q) = %q, want %q", c.question, got, c.want)
		}
	}
}

// TestMissingWords: a word is missing when no document holds a term read
// within its bytes, nor all its reading bigrams together; its reading
// bigrams scattered over other words do not hold it.
func TestMissingWords(t *testing.T) {
	tok := newEveryday(t)
	ix := bm25.New([]bm25.Doc{
		{ID: "a", Text: "ちゅうしゃじょうあるかな"},
		{ID: "b", Text: "毒きのこ"}, // ドク, クシ, ショ of 読書, each in another window
		{ID: "c", Text: "櫛を買った"},
		{ID: "d", Text: "小説"},
		{ID: "e", Text: "projector broken"},
		{ID: "f", Text: "駄目元でその日休み取れないか"},
		{ID: "g", Text: "もえないごみ"},
	}, tok)
	for _, c := range []struct {
		question string
		want     []string
	}{
		{"駐車場", nil},           // spelled in kana: every reading bigram in a
		{"読書", []string{"読書"}}, // its reading bigrams only apart
		{"読書会の部屋 駐車場", []string{"読書", "部屋"}}, // in question order, 駐車場 held
		{"プロジェクター", nil},                     // its loanword key is in c
		{"golf projector", []string{"golf"}},
		// read alone, もと is r:モト of 駄目元 and 休み r:ヤス, r:スミ of 休み
		// (the verb 休む there); the デヤ read across で休み is no part of it
		{"ダメもとで休みを聞く", []string{"聞く"}},
		{"ゴミ", nil}, // its spelling key is in g
	} {
		if got := memory.MissingWords(ix, tok, c.question); !slices.Equal(got, c.want) {
			t.Errorf("MissingWords(%q) = %q, want %q", c.question, got, c.want)
		}
	}
}

// newEveryday returns the everyday analyzer, failing t when it cannot be
// built.
func newEveryday(t *testing.T) *everyday.Analyzer {
	t.Helper()
	a, err := everyday.New()
	if err != nil {
		t.Fatal(err)
	}
	return a
}
