package memory_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/trec"
)

// TestTyped: the prior applies to a question for an amount or a time of
// day, not to one for a date, a place, a person or a thing.
func TestTyped(t *testing.T) {
	cases := []struct {
		question            string
		clock, money, typed bool
	}{
		{"送別会 なんじから", true, false, true},
		{"二次会のｶﾗｵｹ 何時から", true, false, true},
		{"what time does practice start", true, false, true},
		{"景品の予算いくらまで", false, true, true},
		{"how much is the membership fee", false, true, true},
		{"ホテル何円だった", false, true, true},
		{"のみほうだい 何時間", false, false, true}, // a length of time: how much
		{"何人来る？", false, false, true},
		{"how many people came", false, false, true},
		{"忘年会っていつになったんだっけ", false, false, false},
		{"when did the new projector arrive", false, false, false},
		{"歯医者 どこ", false, false, false},
		{"ライブのチケット取ったの誰", false, false, false},
		{"ビンゴの一等って何にした", false, false, false},
		{"年末のミーティングは大会議室？", false, false, false},
		{"いつもの店", false, false, false},
	}
	for _, c := range cases {
		q := memory.ParseQuestion(c.question)
		if q.Clock != c.clock || q.Money != c.money || q.Typed() != c.typed {
			t.Errorf("%q: Clock %v, Money %v, Typed %v; want %v, %v, %v", c.question, q.Clock, q.Money, q.Typed(), c.clock, c.money, c.typed)
		}
	}
}

// TestTypeRerank: S(w) = B(w) + μ · B_max · C(w) over the first TypeDepth
// hits, sorted; the rest keep their scores and order.
func TestTypeRerank(t *testing.T) {
	const mu = 0.35
	hits := func(scores ...float64) []trec.Hit {
		out := make([]trec.Hit, len(scores))
		for i, s := range scores {
			out[i] = trec.Hit{ChunkID: fmt.Sprintf("c%d", i+1), Score: s}
		}
		return out
	}
	cases := []struct {
		name    string
		hits    []trec.Hit
		carries []bool
		mu      float64
		want    []trec.Hit
		bonus   map[string]float64
	}{
		{"a carrying window within 1 − μ of the best goes first",
			hits(10, 8, 5), []bool{false, true, false}, mu,
			[]trec.Hit{{ChunkID: "c2", Score: 8 + mu*10}, {ChunkID: "c1", Score: 10}, {ChunkID: "c3", Score: 5}},
			map[string]float64{"c2": mu * 10}},
		{"one further below rises but stays below",
			hits(10, 8, 6), []bool{false, false, true}, mu,
			[]trec.Hit{{ChunkID: "c1", Score: 10}, {ChunkID: "c3", Score: 6 + mu*10}, {ChunkID: "c2", Score: 8}},
			map[string]float64{"c3": mu * 10}},
		{"the best carrying keeps its place",
			hits(10, 8), []bool{true, true}, mu,
			[]trec.Hit{{ChunkID: "c1", Score: 10 + mu*10}, {ChunkID: "c2", Score: 8 + mu*10}},
			map[string]float64{"c1": mu * 10, "c2": mu * 10}},
		{"μ = 0 changes nothing",
			hits(10, 8), []bool{false, true}, 0,
			hits(10, 8), nil},
		{"nothing to rank", nil, nil, mu, []trec.Hit{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.hits)
			got, bonus := memory.TypeRerank(c.hits, c.carries, c.mu)
			if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("got %v, want %v", got, c.want)
			}
			if !maps.Equal(bonus, c.bonus) {
				t.Errorf("bonus %v, want %v", bonus, c.bonus)
			}
			if !slices.Equal(in, c.hits) {
				t.Error("TypeRerank changed its input")
			}
		})
	}
	t.Run("beyond TypeDepth", func(t *testing.T) {
		scores := make([]float64, memory.TypeDepth+2)
		carries := make([]bool, len(scores))
		for i := range scores {
			scores[i] = float64(len(scores) - i)
			carries[i] = true
		}
		got, bonus := memory.TypeRerank(hits(scores...), carries, mu)
		if len(bonus) != memory.TypeDepth {
			t.Errorf("%d windows given a bonus, want the first %d", len(bonus), memory.TypeDepth)
		}
		for i := memory.TypeDepth; i < len(got); i++ {
			if got[i].Score != scores[i] {
				t.Errorf("hit %d after the depth scored %v, want %v", i+1, got[i].Score, scores[i])
			}
		}
	})
}

// TestWindowCarries reads each raw_text line's message, without its date,
// time and sender, and does not count what the question states.
func TestWindowCarries(t *testing.T) {
	const head = "2026-09-16 17:45 こばやし: "
	cases := []struct {
		question, raw string
		want          bool
	}{
		{"送別会 なんじから", head + "送別会って何時からでしたっけ\n2026-09-16 17:46 田中美穂: 19時だよ", true},
		{"送別会 なんじから", head + "送別会って何時からでしたっけ\n2026-09-16 17:47 田中美穂: www", false},
		// a date is no time of day
		{"忘年会って何時からだっけ", head + "忘年会、12/12か12/13どっちがいい？", false},
		{"忘年会って何時からだっけ", head + "忘年会は18:30スタートに変更", true},
		{"what time does the show start", head + "the show starts at 7pm", true},
		{"景品の予算いくらまで", head + "景品は2万円まで経費で出せるよ", true},
		{"景品の予算いくらまで", head + "景品買い出し行きます！", false},
		{"歯医者 2日から何時にずらした", head + "はいしゃ、2日むりになった", false},
		{"歯医者 2日から何時にずらした", head + "4日の19時にへんこうした", true},
	}
	for _, c := range cases {
		if got := memory.WindowCarries(memory.ParseQuestion(c.question), c.raw); got != c.want {
			t.Errorf("%q over %q: %v, want %v", c.question, strings.ReplaceAll(c.raw, "\n", " / "), got, c.want)
		}
	}
}

// TestTypePriorInSearch: 「沖縄のホテルいくらだった？」 on the mixed history
// puts first the window that holds the price (一泊9,500円) with the prior,
// and the one that holds the question's words but no amount without it.
func TestTypePriorInSearch(t *testing.T) {
	st := mixedStore(t)
	const question = "沖縄のホテルいくらだった？"
	first := func(mu float64) memory.Result {
		m, err := memory.Open(st, memory.Options{TypeWeight: mu})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := m.Search(context.Background(), memory.Query{Text: question, K: memory.DefaultK})
		if err != nil || len(resp.Results) == 0 {
			t.Fatalf("search: %v, %d results", err, len(resp.Results))
		}
		return resp.Results[0]
	}
	pq := memory.ParseQuestion(question)
	with, without := first(0), first(-1)
	if !memory.WindowCarries(pq, with.RawText) || with.TypeBonus == 0 {
		t.Errorf("with the prior: first window carries an amount %v, bonus %v; want an amount and a bonus", memory.WindowCarries(pq, with.RawText), with.TypeBonus)
	}
	if memory.WindowCarries(pq, without.RawText) || without.TypeBonus != 0 || without.ChunkID == with.ChunkID {
		t.Errorf("without the prior: first window %s (bonus %v), want another one, without an amount", without.ChunkID, without.TypeBonus)
	}
}

// A question for a time of day: the window that writes one out goes above
// the thread that only repeats the question's words.
func ExampleTypeRerank() {
	q := memory.ParseQuestion("送別会 なんじから")
	windows := []trec.Hit{{ChunkID: "plan", Score: 37.7}, {ChunkID: "reply", Score: 34.1}}
	texts := map[string]string{
		"plan":  "2026-09-03 18:20 佐々木: 部長の送別会、幹事を中村くんにお願いしてもいいかな",
		"reply": "2026-09-16 17:45 こばやし: 送別会って何時からでしたっけ\n2026-09-16 17:46 田中美穂: 19時だよ",
	}
	carries := make([]bool, len(windows))
	for i, w := range windows {
		carries[i] = memory.WindowCarries(q, texts[w.ChunkID])
	}
	ranked, _ := memory.TypeRerank(windows, carries, memory.DefaultTypeWeight)
	for _, h := range ranked {
		fmt.Printf("%s %.2f\n", h.ChunkID, h.Score)
	}
	// Output:
	// reply 47.30
	// plan 37.70
}
