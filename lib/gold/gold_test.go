package gold_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

// msg builds a complete message of source "chat.json" at position order.
func msg(order int, date, hhmm, sender, text string) chat.Message {
	m := chat.Message{Source: "chat.json", SourceOrder: order, Date: date, Sender: sender, Type: chat.TextType, Text: text}
	if hhmm != "" {
		m.Time = hhmm + ":00"
	}
	at, _ := time.Parse("2006-01-02 15:04", date+" "+hhmm)
	if hhmm == "" {
		at, _ = time.Parse(chat.DateLayout, date)
		at = at.Add(time.Duration(order) * time.Second)
	}
	m.OccurredAt = at
	m.ID = chat.MessageID(m)
	return m
}

func chunk(index int, ms ...chat.Message) chat.Chunk {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return chat.Chunk{ID: chat.ChunkID("chat.json", index, ids), Source: "chat.json", Index: index, MessageIDs: ids}
}

// corpus: messages 0–3 in chunk A, 3–5 in chunk B (message 3 is in the
// overlap of both windows), message 6 in chunk C.
func corpus() ([]chat.Message, []chat.Chunk) {
	ms := []chat.Message{
		msg(0, "2024-05-01", "20:15", "自分", "明日何時にする？"),
		msg(1, "2024-05-01", "20:16", "健太", "18時くらいかな"),
		msg(2, "2024-05-01", "20:17", "自分", "塾あるから遅れるかも"),
		msg(3, "2024-05-01", "20:20", "健太", "ねえ来週の土曜シフト代わってくれない？🙏"),
		msg(4, "2024-05-01", "20:21", "自分", "いいよー"),
		msg(5, "2024-05-01", "20:22", "健太", "店長に言っとく"),
		msg(6, "2024-05-03", "09:00", "自分", "ＵＳＢメモリ忘れた"),
	}
	cs := []chat.Chunk{chunk(0, ms[0:4]...), chunk(1, ms[3:6]...), chunk(2, ms[6])}
	return ms, cs
}

func TestResolve(t *testing.T) {
	ms, cs := corpus()
	a, b, c := cs[0].ID, cs[1].ID, cs[2].ID
	tests := []struct {
		name      string
		items     []gold.Item
		want      map[string]int
		exact     int
		excerpt   int
		unmatched int
	}{
		{
			name:  "exact match",
			items: []gold.Item{{Source: "chat.json", Date: "2024-05-01", Time: "20:17", Sender: "自分", TextPrefix: "塾あるから"}},
			want:  map[string]int{a: 2},
			exact: 1,
		},
		{
			name:  "exact match with seconds and H:MM",
			items: []gold.Item{{Source: "chat.json", Date: "2024-05-03", Time: "9:00:00", Sender: "自分", TextPrefix: "ＵＳＢ"}},
			want:  map[string]int{c: 2},
			exact: 1,
		},
		{
			name:    "prefix mismatch recovered by excerpt search",
			items:   []gold.Item{{Source: "chat.json", Date: "2024-05-01", Time: "20:19", Sender: "健太", TextPrefix: "土曜 シフト代わって"}},
			want:    map[string]int{a: 2, b: 2},
			excerpt: 1,
		},
		{
			name:    "excerpt search across full-width letters and a date one day off",
			items:   []gold.Item{{Source: "chat.json", Date: "2024-05-02", Time: "", Sender: "自分", TextPrefix: "usbメモリ", Role: gold.RoleSupport}},
			want:    map[string]int{c: 1},
			excerpt: 1,
		},
		{
			name: "evidence that matches nothing is reported",
			items: []gold.Item{
				{Source: "chat.json", Date: "2024-05-01", Time: "20:16", Sender: "健太", TextPrefix: "19時にしよう"},
				{Source: "other.json", Date: "2024-05-01", Time: "20:16", Sender: "健太", TextPrefix: "18時くらいかな"},
				{Source: "chat.json", Date: "2024-05-09", Time: "20:16", Sender: "健太", TextPrefix: "18時くらいかな"},
			},
			want:      nil,
			unmatched: 3,
		},
		{
			name:  "answer in two overlapping windows gives two relevance-2 chunks",
			items: []gold.Item{{Source: "chat.json", Date: "2024-05-01", Time: "20:20", Sender: "健太", TextPrefix: "ねえ来週の土曜"}},
			want:  map[string]int{a: 2, b: 2},
			exact: 1,
		},
		{
			name: "support only gives relevance 1; an answer in the same chunk wins",
			items: []gold.Item{
				{Source: "chat.json", Date: "2024-05-01", Time: "20:15", Sender: "自分", TextPrefix: "明日何時", Role: gold.RoleSupport},
				{Source: "chat.json", Date: "2024-05-01", Time: "20:22", Sender: "健太", TextPrefix: "店長に言っとく", Role: gold.RoleSupport},
				{Source: "chat.json", Date: "2024-05-01", Time: "20:16", Sender: "健太", TextPrefix: "18時", Role: gold.RoleAnswer},
			},
			want:  map[string]int{a: 2, b: 1},
			exact: 3,
		},
		{
			name:      "excerpt too short to search",
			items:     []gold.Item{{Source: "chat.json", Date: "2024-05-01", Time: "20:00", Sender: "自分", TextPrefix: "いいよ"}},
			want:      nil,
			unmatched: 1,
		},
		{
			name:  "no evidence",
			items: nil,
			want:  nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := []gold.Evidence{{QID: "q1", Question: "?", Type: "contextual", Items: tt.items}}
			qrels, rep := gold.Resolve(ev, ms, cs)
			if !reflect.DeepEqual(qrels["q1"], tt.want) {
				t.Errorf("qrels = %v, want %v", qrels["q1"], tt.want)
			}
			if rep.Exact != tt.exact || rep.Excerpt != tt.excerpt || len(rep.Unmatched) != tt.unmatched {
				t.Errorf("exact/excerpt/unmatched = %d/%d/%d, want %d/%d/%d", rep.Exact, rep.Excerpt, len(rep.Unmatched), tt.exact, tt.excerpt, tt.unmatched)
			}
			if len(rep.Items) != len(tt.items) {
				t.Errorf("report holds %d items, want %d", len(rep.Items), len(tt.items))
			}
			hasPrimary := false
			for _, rel := range tt.want {
				hasPrimary = hasPrimary || rel == 2
			}
			if gotMissing := len(rep.NoPrimary) == 1; gotMissing == hasPrimary {
				t.Errorf("NoPrimary = %v with want %v", rep.NoPrimary, tt.want)
			}
		})
	}
}

func TestResolvePrefersSameSenderAndNearestTime(t *testing.T) {
	ms := []chat.Message{
		msg(0, "2024-05-01", "08:00", "健太", "了解、駅前のカフェで"),
		msg(1, "2024-05-01", "20:00", "自分", "了解、駅前のカフェで"),
		msg(2, "2024-05-01", "21:00", "自分", "了解、駅前のカフェで"),
	}
	cs := []chat.Chunk{chunk(0, ms[0]), chunk(1, ms[1]), chunk(2, ms[2])}
	ev := []gold.Evidence{{QID: "q", Items: []gold.Item{{Source: "chat.json", Date: "2024-05-01", Time: "20:50", Sender: "自分", TextPrefix: "駅前のカフェ"}}}}
	qrels, rep := gold.Resolve(ev, ms, cs)
	if want := (ranking.Qrels{"q": {cs[2].ID: 2}}); !reflect.DeepEqual(qrels, want) {
		t.Errorf("qrels = %v, want %v", qrels, want)
	}
	if rep.Items[0].Candidates != 3 {
		t.Errorf("candidates = %d, want 3", rep.Items[0].Candidates)
	}
}

func TestResolveReportsMessageInNoChunk(t *testing.T) {
	ms, cs := corpus()
	ev := []gold.Evidence{{QID: "q", Items: []gold.Item{{Source: "chat.json", Date: "2024-05-03", Time: "09:00", Sender: "自分", TextPrefix: "ＵＳＢ"}}}}
	_, rep := gold.Resolve(ev, ms, cs[:2])
	if len(rep.Unchunked) != 1 || len(rep.NoPrimary) != 1 {
		t.Errorf("unchunked %d, no primary %v; want 1 and [q]", len(rep.Unchunked), rep.NoPrimary)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"ＵＳＢ メモリ！", "usbメモリ"},
		{"シフト、代わって？🙏", "シフト代わって"},
		{"まじかwww", "まじか"},
		{"ラーメン\n食べたい", "ラーメン食べたい"},
	}
	for _, tt := range tests {
		if got := gold.Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReadEvidence(t *testing.T) {
	good := "\xef\xbb\xbf" + `{"qid":"q1","question":"いつ？","type":"contextual","evidence":[{"source":"a.json","date":"2024-01-01","time":"10:00","sender":"自分","text_prefix":"明日","role":"answer"}]}` + "\n\n" +
		`{"qid":"q2","question":"誰？","type":"named_entity","evidence":[{"source":"a.json","date":"2024-01-02","time":"","sender":"母","text_prefix":"ただいま"}]}` + "\n"
	evs, err := gold.ReadEvidence("ev.jsonl", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[1].Items[0].Sender != "母" || !evs[1].Items[0].IsAnswer() {
		t.Fatalf("read %+v", evs)
	}
	var buf bytes.Buffer
	if err := gold.WriteEvidence(&buf, evs); err != nil {
		t.Fatal(err)
	}
	again, err := gold.ReadEvidence("again", &buf)
	if err != nil || !reflect.DeepEqual(again, evs) {
		t.Fatalf("round trip: %v, %+v", err, again)
	}

	bad := []struct {
		name, text string
		line       int
	}{
		{"not JSON", `{"qid":"q1"` + "\n", 1},
		{"missing qid", "\n" + `{"question":"x","evidence":[]}`, 2},
		{"duplicate qid", `{"qid":"a"}` + "\n" + `{"qid":"a"}`, 2},
		{"item without prefix", `{"qid":"a","evidence":[{"source":"s","date":"2024-01-01"}]}`, 1},
		{"bad role", `{"qid":"a","evidence":[{"source":"s","date":"2024-01-01","text_prefix":"x","role":"main"}]}`, 1},
		{"wrong type", `{"qid":"a","evidence":[{"source":"s","date":"2024-01-01","text_prefix":5}]}`, 1},
		{"invalid UTF-8", `{"qid":"\xff"}`, 1},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gold.ReadEvidence("ev.jsonl", strings.NewReader(tt.text))
			var ie *gold.InputError
			if !errors.As(err, &ie) || ie.Line != tt.line || ie.File != "ev.jsonl" {
				t.Errorf("error %v, want an InputError on ev.jsonl line %d", err, tt.line)
			}
		})
	}
}

func ExampleResolve() {
	ms, cs := corpus()
	ev := []gold.Evidence{{
		QID: "q1", Question: "バイトの勤務を交代してほしいと頼まれたのはいつ？", Type: "contextual",
		Items: []gold.Item{
			{Source: "chat.json", Date: "2024-05-01", Time: "20:20", Sender: "健太", TextPrefix: "シフト代わって", Role: gold.RoleAnswer},
			{Source: "chat.json", Date: "2024-05-01", Time: "20:22", Sender: "健太", TextPrefix: "店長に", Role: gold.RoleSupport},
			{Source: "chat.json", Date: "2024-05-01", Time: "20:22", Sender: "健太", TextPrefix: "店長が休みって", Role: gold.RoleSupport},
		},
	}}
	qrels, rep := gold.Resolve(ev, ms, cs)
	if err := trec.WriteQrels(os.Stdout, qrels); err != nil {
		fmt.Println(err)
	}
	if err := rep.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// q1 0 3be2b2119c229cdc 2
	// q1 0 cf2eddc6117a9408 2
	// questions 1, evidence items 3: 1 exact, 1 by excerpt, 1 unmatched, 0 in no chunk
	// graded chunks: 2 relevance 2, 0 relevance 1
	// unmatched: q1 item 2 (chat.json 2024-05-01 20:22 健太 "店長が休みって")
}
