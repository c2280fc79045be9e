package memory_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/memory"
)

func TestNameMatches(t *testing.T) {
	cases := []struct {
		name, filter string
		want         bool
	}{
		{"Aya", "aya", true},                       // letter case
		{"Mike Brown", "mike", true},               // prefix
		{"Mike Brown", "brown", true},              // whole word
		{"Mike Brown", "bro", false},               // part of a word that is not the start
		{"山田 太郎", "山田", true},                      // prefix
		{"山田 太郎", "太郎", true},                      // word
		{"山田　太郎", "山田 太郎", true},                   // ideographic space folded
		{"[LINE] Tennis Club.txt", "tennis", true}, // word of a file name
		{"[LINE] Tennis Club.txt", "ＴＥＮＮＩＳ", true}, // full width
		{"en_tennis.txt", "en_tennis", true},       // prefix
		{"[LINE] Tennis Club.txt", "tenis", false}, // a typo names nothing
		{"はるか", "ハルカ", true},                       // katakana for hiragana
		{"ﾊﾙｶ", "はるか", true},                       // half-width katakana
		{"ァヶ", "ぁゖ", true},                         // the first and last katakana folded
		{"はるか", "はる", true},                        // prefix across scripts
		{"Aya", "", false},
	}
	for _, c := range cases {
		if got := memory.NameMatches(c.name, c.filter); got != c.want {
			t.Errorf("NameMatches(%q, %q) = %v, want %v", c.name, c.filter, got, c.want)
		}
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"serch", "search", 1}, {"retreiver", "retriever", 2}, {"山田", "山本", 1}, {"abc", "", 3}} {
		if got := memory.Levenshtein(c.a, c.b); got != c.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestForgivingFilters(t *testing.T) {
	st := mixedStore(t)
	m, err := memory.Open(st, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.ResolveSources([]string{"tennis", "佐藤"})
	if err != nil || !slices.Equal(got, []string{"[LINE] Tennis Club.txt", "[LINE] 佐藤 花子.txt"}) {
		t.Errorf("ResolveSources(tennis, 佐藤) = %q, %v", got, err)
	}
	if got, err := m.ResolveSources([]string{"Tennis Club"}); err != nil || !slices.Equal(got, []string{"[LINE] Tennis Club.txt"}) {
		t.Errorf("ResolveSources by title: %q, %v", got, err)
	}
	for source, title := range map[string]string{"[LINE] Tennis Club.txt": "Tennis Club", "[LINE] 佐藤 花子.txt": "佐藤 花子", "[LINE] かぞく.txt": "かぞく", "nosuch": ""} {
		if got := m.Title(source); got != title {
			t.Errorf("Title(%q) = %q, want %q", source, got, title)
		}
	}
	_, err = m.ResolveSources([]string{"tenis"})
	if !errors.Is(err, memory.ErrNoSuchName) || !errors.Is(err, memory.ErrBadQuery) || !strings.Contains(err.Error(), `closest: "Tennis Club"`) {
		t.Errorf("ResolveSources(tenis): %v, want the closest chat named", err)
	}
	if err := m.CheckSender("aya"); err != nil {
		t.Errorf("CheckSender(aya): %v", err)
	}
	if err := m.CheckSender("ayo"); !errors.Is(err, memory.ErrNoSuchName) || !strings.Contains(err.Error(), `closest: "Aya"`) {
		t.Errorf("CheckSender(ayo): %v, want Aya offered first", err)
	}
	for _, c := range []struct{ name, want, err string }{
		{"mike", "Mike Brown", ""},
		{"マイク", "", `no one called "マイク"`},
		{"お", "", `"お" names 3 senders, "おかあさん", "おとうさん", "おばあちゃん"; give more of the name`},
	} {
		got, err := m.ResolveSender(c.name)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && (!errors.Is(err, memory.ErrNoSuchName) || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ResolveSender(%q) = %q, %v; want %q, an error saying %q", c.name, got, err, c.want, c.err)
		}
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "lunch", K: 5, Sender: "aya"})
	if err != nil || len(resp.Results) == 0 {
		t.Fatalf("--sender aya: %d results, %v", len(resp.Results), err)
	}
	for _, r := range resp.Results {
		if !slices.ContainsFunc(r.Messages, func(msg memory.Message) bool { return msg.Sender == "Aya" }) {
			t.Errorf("%s: no message by Aya", r.ChunkID)
		}
	}
	resp, err = m.Search(context.Background(), memory.Query{Text: "鍋", K: 5, Sender: "佐藤"})
	if err != nil || len(resp.Results) == 0 || resp.Results[0].Source != "[LINE] 佐藤 花子.txt" {
		t.Errorf("--sender 佐藤 for 佐藤 花子: %+v, %v", resp.Results, err)
	}
}

// TestCheckSenderOffersEveryoneUpToEight: a name that names no one is
// answered with every sender when there are at most eight of them (a name
// in another script is not close in spelling), else with the closest three.
func TestCheckSenderOffersEveryoneUpToEight(t *testing.T) {
	for _, c := range []struct {
		senders int
		offered int
	}{{8, 8}, {9, 3}} {
		var senders []string
		for i := range c.senders {
			senders = append(senders, fmt.Sprintf("member%d", i+1))
		}
		m, err := memory.Open(folderStore(t, oneChat(t, "group", senders...)), memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = m.CheckSender("はるか")
		if !errors.Is(err, memory.ErrNoSuchName) {
			t.Fatalf("%d senders: CheckSender = %v, want ErrNoSuchName", c.senders, err)
		}
		if got := strings.Count(err.Error(), `"member`); got != c.offered {
			t.Errorf("%d senders: %d offered in %q, want %d", c.senders, got, err, c.offered)
		}
	}
}

// TestCheckSenderOffersNoSystemSender: a chat's notices (sender SYSTEM)
// are no person to offer for a name that names no one.
func TestCheckSenderOffersNoSystemSender(t *testing.T) {
	m := chatMemory(t, "09:00\tゆい\tおはよう\n09:01\tRenがグループに参加しました。\n09:02\tみお\tおはよ\n")
	senders, err := m.Senders()
	if err != nil || !slices.Contains(senders, "SYSTEM") {
		t.Fatalf("senders %q, %v: want a SYSTEM line in the chat", senders, err)
	}
	err = m.CheckSender("エミリー")
	if !errors.Is(err, memory.ErrNoSuchName) || strings.Contains(err.Error(), "SYSTEM") || !strings.Contains(err.Error(), `"ゆい"`) {
		t.Errorf("CheckSender(エミリー) = %v; want ゆい and みお offered, not SYSTEM", err)
	}
}
