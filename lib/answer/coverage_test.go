package answer_test

import (
	"context"
	"fmt"
	"github.com/linemem/linemem/lib/bm25"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

func window(id string, texts ...string) memory.Result {
	r := memory.Result{ChunkID: id}
	for i, t := range texts {
		r.Messages = append(r.Messages, memory.Message{ID: id + "-" + string(rune('a'+i)), Text: t})
	}
	return r
}

func TestExtractiveMethods(t *testing.T) {
	top := window("w1", "Ken joined the group", "Lunch at Kanda, noon works?", "Which place?", "Soba place Matsuya near Kanda station")
	top.Matched = []int{0, 1, 3}
	other := window("w2", "lunch lunch lunch with Ken at the ramen place")
	chunks := []memory.Result{top, other}
	q := "Where are we having lunch with Ken at Kanda?"
	cases := []struct {
		method, want string
	}{
		// coverage: lunch + kanda in message b (and ken from its neighbour a)
		// beat kanda alone in d; the other window is not read; the question
		// asks where, and d is the nearest line naming a place that is not
		// itself a question ("Which place?")
		{answer.MethodCoverage, `"Soba place Matsuya near Kanda station" [1]`},
		{answer.MethodFirstMatch, "Ken joined the group [1]"},
	}
	for _, c := range cases {
		t.Run(c.method, func(t *testing.T) {
			ex, err := answer.NewExtractiveMethod(newEveryday(t), c.method)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ex.Answer(context.Background(), q, chunks)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != c.want || len(a.Citations) != 1 || a.Citations[0].ChunkID != "w1" {
				t.Errorf("%s: %q citing %+v, want %q citing w1", c.method, a.Text, a.Citations, c.want)
			}
		})
	}
	if _, err := answer.NewExtractiveMethod(newEveryday(t), "best"); err == nil || !strings.Contains(err.Error(), answer.MethodCoverage) {
		t.Errorf("unknown method: error %v, want one listing the methods", err)
	}
	ex, _ := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
	if a, _ := ex.Answer(context.Background(), "golf", chunks); !a.Abstained || a.Text != answer.AbstainPhraseEnglish {
		t.Errorf("no question term anywhere: %+v, want an abstention in English", a)
	}
	if a, _ := ex.Answer(context.Background(), "ゴルフ", chunks); !a.Abstained || a.Text != answer.AbstainPhrase {
		t.Errorf("no question term anywhere: %+v, want an abstention in Japanese", a)
	}
}

// TestCoverageQuotesTheAnswerLine: the line quoted is the one that answers,
// in the question's language, naming who wrote it and when.
func TestCoverageQuotesTheAnswerLine(t *testing.T) {
	at := time.Date(2024, 5, 11, 11, 53, 0, 0, time.UTC)
	msg := func(id, sender, text string) memory.Message {
		return memory.Message{ID: id, Sender: sender, Text: text, At: at}
	}
	chat := memory.Result{ChunkID: "w", Messages: []memory.Message{
		msg("a", "Ken", "BBQの場所どこにする？"),
		msg("b", "Aya", "昭島のモリパークがいいな"),
		msg("c", "Ken", "集合は10時半で"),
		msg("d", "Aya", "了解"),
		msg("e", "Mio", "ごめん傘忘れた"),
		msg("f", "Ken", "えっ"),
		msg("g", "Aya", "傘誰か持ってる？"),
		msg("h", "Ken", "ある"),
		msg("i", "Mio", "山口さんって誰だっけ"),
		msg("j", "Aya", "隣の課の人"),
	}}
	cases := []struct {
		name, question, me, want string
		cites                    []string
	}{
		// a matches BBQ and 場所 but asks itself; b, the reply, names a
		// park (パーク)
		{"where: the place in the reply", "バーベキューの場所どこだっけ BBQ", "", "Aya（2024年5月11日）：「昭島のモリパークがいいな」 [1]", []string{"a", "b"}},
		// 集合 matches c, which carries a time (10時)
		{"when: the line with the time", "集合 いつ？", "", "Ken（2024年5月11日）：「集合は10時半で」 [1]", []string{"c"}},
		// BBQ and 集合 are one word each, of one message each: a tie the
		// earlier message a wins; it asks, and c, within reach, carries
		// the time
		{"English frame", "when do we meet BBQ 集合", "", `Ken, 11 May 2024: "集合は10時半で" [1]`, []string{"a", "c"}},
		{"me is you", "集合 いつ？", "ken", "あなた（2024年5月11日）：「集合は10時半で」 [1]", []string{"c"}},
		// e matches 傘忘れ and is no question: its sender is who forgot,
		// not the reply after it
		{"who: the matched line's sender", "傘忘れたの誰", "", "Mio（2024年5月11日）：「ごめん傘忘れた」 [1]", []string{"e"}},
		// g matches 傘 but asks itself: the reply answers
		{"who: a question line's reply", "傘持ってる人誰", "", "Ken（2024年5月11日）：「ある」 [1]", []string{"g", "h"}},
		// i names a person (さん) but asks: its reply answers
		{"a question line never answers itself", "山口さん誰", "", "Aya（2024年5月11日）：「隣の課の人」 [1]", []string{"i", "j"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ex, err := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ex.WithMe(c.me).Answer(context.Background(), c.question, []memory.Result{chat})
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != c.want || len(a.Citations) != 1 || !slices.Equal(a.Citations[0].MessageIDs, c.cites) {
				t.Errorf("%q: %q citing %+v, want %q citing %v", c.question, a.Text, a.Citations, c.want, c.cites)
			}
		})
	}
}

// TestCoverageLineChoiceReadsTheQuestion: a line that only repeats the date
// the question states (2日) carries nothing it asks for, and the line with
// the new one (4日, 19時) is quoted beside it; a line ending in でした
// states something, and is the reply quoted rather than skipped as a
// question; いくら asks for money, not a travel time, and 何時 for a time
// of day, not a date.
func TestCoverageLineChoiceReadsTheQuestion(t *testing.T) {
	at := time.Date(2026, 8, 31, 22, 30, 0, 0, time.UTC)
	cases := []struct {
		name, question string
		texts          [3][2]string // sender, text of messages a, b, c
		want           string
		cites          []string
	}{
		{"the question's own date", "歯医者 2日から何日にずらしたんだっけ",
			[3][2]string{{"ゆうた", "はいしゃ、しごとで2日むりになった"}, {"みさき", "えーそうなんだ"}, {"ゆうた", "4日(金)の19時にへんこうした"}},
			"ゆうた（2026年8月31日）：「4日(金)の19時にへんこうした」 [1]", []string{"a", "c"}},
		{"a statement ending in でした", "バルソーレにならなかったのなんで",
			[3][2]string{{"中村", "バル・ソーレが多かったので電話してみます"}, {"中村", "バル・ソーレ、金曜は貸切20人までだそうです…30人は無理でした"}, {"田中", "えーざんねん"}},
			"中村（2026年8月31日）：「バル・ソーレ、金曜は貸切20人までだそうです…30人は無理でした」 [1]", []string{"a", "b"}},
		{"a sum of money, not a length of time", "ロマンスカーいくら",
			[3][2]string{{"けん", "箱根がいいと思う、ロマンスカーで1時間半くらい"}, {"あや", "いいね"}, {"けん", "片道2,470円だって"}},
			"けん（2026年8月31日）：「片道2,470円だって」 [1]", []string{"a", "c"}},
		{"a clock time, not a date", "集合なんじ",
			[3][2]string{{"あや", "集合は12/12にしよう"}, {"けん", "おっけー"}, {"あや", "じゃあ駅に18時半ね"}},
			"あや（2026年8月31日）：「じゃあ駅に18時半ね」 [1]", []string{"a", "c"}},
	}
	ex, err := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			chat := memory.Result{ChunkID: "w"}
			for k, m := range c.texts {
				chat.Messages = append(chat.Messages, memory.Message{ID: string(rune('a' + k)), Sender: m[0], Text: m[1], At: at})
			}
			a, err := ex.Answer(context.Background(), c.question, []memory.Result{chat})
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != c.want || len(a.Citations) != 1 || !slices.Equal(a.Citations[0].MessageIDs, c.cites) {
				t.Errorf("%q citing %+v, want %q citing %v", a.Text, a.Citations, c.want, c.cites)
			}
		})
	}
}

// TestCoverageWeighsByTheHistorysIDF: two lines each hold one word of the
// question once, a tie over the window's own messages (the earlier wins);
// with the history's IDF the line with the rarer word wins.
func TestCoverageWeighsByTheHistorysIDF(t *testing.T) {
	at := time.Date(2024, 5, 11, 11, 53, 0, 0, time.UTC)
	chat := memory.Result{ChunkID: "w", Messages: []memory.Message{
		{ID: "a", Sender: "Ken", Text: "忘年会の出欠まだの人いる？", At: at},
		{ID: "b", Sender: "Aya", Text: "まだです", At: at},
		{ID: "c", Sender: "Mio", Text: "ビンゴの司会やりたい", At: at},
	}}
	ex, err := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
	if err != nil {
		t.Fatal(err)
	}
	// the history: 忘年会 in every window, 司会 in one
	var docs []bm25.Doc
	for i := range 10 {
		docs = append(docs, bm25.Doc{ID: fmt.Sprint(i), Text: "忘年会の出欠"})
	}
	docs = append(docs, bm25.Doc{ID: "x", Text: "司会"})
	ix := bm25.New(docs, newEveryday(t))
	idf := func(term string) float64 { return bm25.IDF(ix.Len(), ix.DocFreq(term)) }
	for _, c := range []struct {
		name  string
		ex    *answer.Extractive
		cites string
	}{
		{"the window's IDF: a tie, the earlier line", ex, "a"},
		{"the history's IDF: the rarer word's line", ex.WithIDF(idf), "c"},
	} {
		a, err := c.ex.Answer(context.Background(), "忘年会の司会", []memory.Result{chat})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Citations) != 1 || !slices.Contains(a.Citations[0].MessageIDs, c.cites) {
			t.Errorf("%s: %q citing %+v, want message %s cited", c.name, a.Text, a.Citations, c.cites)
		}
	}
}

// TestCoverageCountsAWordOnce: a question word counts once, by its best
// term, however many reading and kanji-bigram terms it has: at equal IDF
// 忘年会 (five terms held by its line) weighs what 司会 (four) does, and the
// tie goes to the earlier line.
func TestCoverageCountsAWordOnce(t *testing.T) {
	at := time.Date(2024, 11, 27, 12, 40, 0, 0, time.UTC)
	chat := memory.Result{ChunkID: "w", Messages: []memory.Message{
		{ID: "a", Sender: "中村 翔", Text: "司会はこばやしくんにお願いしました", At: at},
		{ID: "b", Sender: "佐々木", Text: "了解", At: at},
		{ID: "c", Sender: "高橋 恵", Text: "忘年会の出欠、いま28人です", At: at},
	}}
	ex, err := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
	if err != nil {
		t.Fatal(err)
	}
	one := func(string) float64 { return 1 }
	a, err := ex.WithIDF(one).Answer(context.Background(), "忘年会の司会だれ", []memory.Result{chat})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Citations) != 1 || !slices.Equal(a.Citations[0].MessageIDs, []string{"a"}) {
		t.Errorf("%q citing %+v, want message a", a.Text, a.Citations)
	}
}

func newEveryday(t *testing.T) *everyday.Analyzer {
	t.Helper()
	a, err := everyday.New()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEnglish(t *testing.T) {
	for _, c := range []struct {
		question string
		want     bool
	}{
		{"when is the flight", true},
		{"pancake いくらだった", false}, // Japanese grammar, an English word
		{"AirPods どこ", false},
		{"MacBook Air 何円", false}, // more Latin letters, but 何円 asks in Japanese
		{"東京 hotel price", true},
		{"駐車場どこ", false},
	} {
		if got := answer.English(c.question); got != c.want {
			t.Errorf("English(%q) = %v, want %v", c.question, got, c.want)
		}
	}
}
