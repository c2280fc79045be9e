package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/memory"
)

func TestParseQuestion(t *testing.T) {
	cases := []struct {
		question string
		content  string // Content with its runs of spaces closed up (after NFKC: ？ is ?)
		asks     memory.Asks
		words    []string
	}{
		{"", "", memory.AsksOther, nil},
		{"バーベキューの場所どこだっけ", "バーベキューの場所", memory.AsksWhere, []string{"だっけ", "どこ"}},
		{"沖縄のホテルいくらだった？", "沖縄のホテル ?", memory.AsksHowMuch, []string{"だった", "いくら"}},
		{"金沢旅行の準備で自分が引き受けたことは何？", "金沢旅行の準備で自分が引き受けたことは ?", memory.AsksWhat, []string{"何"}},
		{"おばあちゃんの 手術は いつ？", "おばあちゃんの 手術は ?", memory.AsksWhen, []string{"いつ"}},
		{"集合は何時？", "集合は ?", memory.AsksWhen, []string{"何時"}},
		{"誰が運転するんだっけ", "が運転するん", memory.AsksWho, []string{"だっけ", "誰"}},
		// indefinite, not interrogative: いつも, 何か
		{"いつもの店", "いつもの店", memory.AsksOther, nil},
		{"何か買った?", "何か買った?", memory.AsksOther, nil},
		{"どこかで会った", "どこかで会った", memory.AsksOther, nil},
		{"いくらか払う", "いくらか払う", memory.AsksOther, nil},
		// the か of から and かかる is no indefinite か
		{"二次会 何時から", "二次会 から", memory.AsksWhen, []string{"何時"}},
		{"いつから", "から", memory.AsksWhen, []string{"いつ"}},
		{"景品ぜんぶでいくらかかった", "景品ぜんぶで かかった", memory.AsksHowMuch, []string{"いくら"}},
		// kana spellings ask what their kanji ask; a count of hours asks how much
		{"送別会 なんじから", "送別会 から", memory.AsksWhen, []string{"なんじ"}},
		{"のみほうだい 何時間", "のみほうだい", memory.AsksHowMuch, []string{"何時間"}},
		{"なんにん来る", "来る", memory.AsksHowMuch, []string{"なんにん"}},
		{"なんかいい店ある", "なんかいい店ある", memory.AsksOther, nil},
		{"how much is the membership fee", "is the membership fee", memory.AsksHowMuch, []string{"how", "much"}},
		{"Where are we having lunch with Ken?", "are we having lunch with Ken?", memory.AsksWhere, []string{"Where"}},
		{"what time does practice start", "does practice start", memory.AsksWhen, []string{"what", "time"}},
		{"who is driving to Karuizawa", "is driving to Karuizawa", memory.AsksWho, []string{"who"}},
		{"Did Ken ever pay back the 10,000 yen", "Did Ken ever pay back the 10,000 yen", memory.AsksYesNo, nil},
		{"which shop restrings rackets", "shop restrings rackets", memory.AsksWhat, []string{"which"}},
		// nothing would be left: the question is matched as typed
		{"いつ？", "いつ？", memory.AsksWhen, []string{"いつ"}},
		{"netflixの新しいパスワード", "netflixの新しいパスワード", memory.AsksOther, nil},
		// "how" asks only before much or many
		{"and how", "and how", memory.AsksOther, nil},
		{"how many people came", "people came", memory.AsksHowMuch, []string{"how", "many"}},
		// か and の make a yes/no question, other endings do not; an
		// interrogative overrides yes/no, and a precise one "what"
		{"集合時間だっけ", "集合時間", memory.AsksOther, []string{"だっけ"}},
		{"明日来るの", "明日来る", memory.AsksYesNo, []string{"の"}},
		{"どこに置いたか", "に置いた", memory.AsksWhere, []string{"か", "どこ"}},
		{"どこで集合", "で集合", memory.AsksWhere, []string{"どこ"}},
		{"what 店 どこ", "店", memory.AsksWhere, []string{"what", "どこ"}},
		{"what 持っていくの", "持っていく", memory.AsksWhat, []string{"what", "の"}},
		// the first question word decides, but a yes/no opening and "what"
		// give way to a more precise one
		{"when and where is the party", "and is the party", memory.AsksWhen, []string{"when", "where"}},
		{"did you see where Ken parked", "did you see Ken parked", memory.AsksWhere, []string{"where"}},
		{"which shop and when", "shop and", memory.AsksWhen, []string{"which", "when"}},
	}
	for _, c := range cases {
		t.Run(c.question, func(t *testing.T) {
			q := memory.ParseQuestion(c.question)
			if got := strings.Join(strings.Fields(q.Content), " "); got != c.content || q.Asks != c.asks || !slices.Equal(q.Words, c.words) {
				t.Errorf("content %q, asks %q, words %q; want %q, %q, %q", got, q.Asks, q.Words, c.content, c.asks, c.words)
			}
		})
	}
}

// TestAsking: a question word or an ending only a question has asks; だった,
// でした and は end statements as often.
func TestAsking(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"集合何時", true},
		{"明日だっけ", true},
		{"行きますか", true},
		{"明日行くの", true},
		{"did you book it", true},
		{"30人は無理でした", false},
		{"ロクシタンのハンドクリーム 3,300円だった", false},
		{"今日は", false},
		{"新宿から片道2,470円くらいかな", false}, // かな hedges a statement
		{"どこにしようかな", true},
		{"何か買った", false},
		{"Booked it", false},
	}
	for _, c := range cases {
		if got := memory.ParseQuestion(c.text).Asking(); got != c.want {
			t.Errorf("ParseQuestion(%q).Asking() = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestCarries(t *testing.T) {
	cases := []struct {
		asks  memory.Asks
		text  string
		names []string
		want  bool
	}{
		{memory.AsksWhen, "集合は10時半で", nil, true},
		{memory.AsksWhen, "meet at 7:30pm", nil, true},
		{memory.AsksWhen, "12/7でどう？", nil, true},
		{memory.AsksWhen, "来週の土曜", nil, true},
		{memory.AsksWhen, "了解", nil, false},
		{memory.AsksHowMuch, "一泊9,500円", nil, true},
		{memory.AsksHowMuch, "一泊９，５００円", nil, true},
		{memory.AsksHowMuch, "6,000 yen per year", nil, true},
		{memory.AsksHowMuch, "$20 each", nil, true},
		{memory.AsksHowMuch, "パンケーキ 1800えん", nil, true},
		{memory.AsksHowMuch, "2まいかった", nil, true},
		{memory.AsksHowMuch, "飲み放題は2時間", nil, true},
		{memory.AsksHowMuch, "あと90分", nil, true},
		{memory.AsksHowMuch, "高かった", nil, false},
		{memory.AsksWhere, "昭島のモリパーク", nil, true},
		{memory.AsksWhere, "Soba place Matsuya near Kanda station", nil, true},
		{memory.AsksWhere, "業務スーパーで買おう", nil, true},
		{memory.AsksWhere, "えきまえで", nil, true},
		{memory.AsksWhere, "鍵、玄関のポストに入れといたよ", nil, true},
		{memory.AsksWhere, "ありました！！給湯室の棚の上", nil, true},
		{memory.AsksWhere, "テレビの横にあった", nil, true},
		{memory.AsksWhere, "先に出るね", nil, false},
		{memory.AsksWhere, "楽しみ", nil, false},
		{memory.AsksWho, "田中さんが来る", nil, true},
		{memory.AsksWho, "Mike is driving", []string{"Mike Brown", "自分"}, true},
		{memory.AsksWho, "I'll ask brown tomorrow", []string{"Mike Brown", "自分"}, true}, // the name is not the first word
		{memory.AsksWho, "I'm driving", []string{"Mike Brown", "自分"}, false},
		{memory.AsksWhat, "10時", nil, false},
		{memory.AsksYesNo, "10時", nil, false},
	}
	for _, c := range cases {
		if got := memory.Carries(c.asks, c.text, c.names); got != c.want {
			t.Errorf("Carries(%q, %q, %q) = %v, want %v", c.asks, c.text, c.names, got, c.want)
		}
	}
}

// TestCarriedBy: a date, time or amount the question itself states is not
// what it asks for; a place word it holds still is.
func TestCarriedBy(t *testing.T) {
	cases := []struct {
		question, text string
		want           bool
	}{
		{"歯医者 2日から何日にずらしたんだっけ", "はいしゃ、しごとで2日むりになった", false},
		{"歯医者 2日から何日にずらしたんだっけ", "4日(金)の19時にへんこうした", true},
		{"12日の集合は何時", "12日ね", false},
		{"12日の集合はいつ", "2日ね", true},  // 2日 is no match the question states
		{"12日の集合は何時", "2日ね", false}, // a question for a time of day: a date is none
		{"12日の集合は何時", "１２日の１０時", true},
		{"3人でいくら", "3人で行く", false},
		{"3人でいくら", "3人で9,000円", true},
		// a question for a sum of money: a length of time or a count is none
		{"ロマンスカーいくら", "ロマンスカーで1時間半くらい", false},
		{"ロマンスカーいくら", "片道2,470円", true},
		{"how much were the tickets", "4,400 yen each", true},
		{"how much were the tickets", "for 2 people", false},
		{"何人来る？", "5人くる", true},
		{"のみほうだい 何時間", "飲み放題3時間にした", true},
		{"when did we move it from March 3", "moved it from march 3", false},
		{"when did we move it from March 3", "moved to friday", true},
		{"駅前のカフェどこ", "駅前のカフェ", true},
		{"集合 いつ？", "集合は10時半で", true},
	}
	for _, c := range cases {
		if got := memory.ParseQuestion(c.question).CarriedBy(c.text, nil); got != c.want {
			t.Errorf("ParseQuestion(%q).CarriedBy(%q) = %v, want %v", c.question, c.text, got, c.want)
		}
	}
}
