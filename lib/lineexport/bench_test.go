package lineexport_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/lineexport"
)

// paperMessages is the size of the paper's corpus (358,896 messages).
const paperMessages = 358_896

// generateJSON writes a seeded JSON-by-date export of n messages, spread
// over consecutive days, with the field mix of a real export (a few unknown
// times, missing senders and media records).
func generateJSON(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	senders := []string{"自分", "さくら", "Ren", "母"}
	texts := []string{"明日のバイト何時から？", "17時からだよ", "了解！", "京都旅行の新幹線取れた", "See you at 7 at Shibuya station", "www"}
	var buf bytes.Buffer
	buf.WriteString("{\n")
	day := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)
	for written := 0; written < n; day = day.AddDate(0, 0, 1) {
		if written > 0 {
			buf.WriteString(",\n")
		}
		fmt.Fprintf(&buf, "%q: [", day.Format("2006-01-02"))
		perDay := min(n-written, 1+rng.IntN(120))
		for i := range perDay {
			if i > 0 {
				buf.WriteString(", ")
			}
			buf.WriteString("{")
			if rng.IntN(50) > 0 {
				fmt.Fprintf(&buf, `"time": "%d:%02d", `, rng.IntN(24), rng.IntN(60))
			}
			if rng.IntN(100) > 0 {
				fmt.Fprintf(&buf, `"sender": %q, `, senders[rng.IntN(len(senders))])
			}
			if rng.IntN(10) == 0 {
				buf.WriteString(`"type": "photo", "text": ""}`)
				continue
			}
			buf.WriteString(`"type": "text", "text": ` + strconv.Quote(texts[rng.IntN(len(texts))]) + "}")
		}
		buf.WriteString("]")
		written += perDay
	}
	buf.WriteString("\n}\n")
	return buf.Bytes()
}

func BenchmarkReadJSON(b *testing.B) {
	for _, n := range []int{1_000, 36_000, paperMessages} {
		data := generateJSON(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				res, err := lineexport.ReadJSON("bench.json", bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Messages) != n {
					b.Fatalf("got %d messages, want %d", len(res.Messages), n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "messages/s")
		})
	}
}

// generateText writes a seeded LINE .txt export of n messages (Japanese UI,
// LF record ends, some quoted multi-line messages and placeholders).
func generateText(n int) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	senders := []string{"佐藤花子", "田中健太"}
	texts := []string{"明日のバイト何時から？", "17時からだよ", "[スタンプ]", "[写真]", "\"買うものリスト\n・牛乳\n・パン\"", "See you at 7"}
	var buf bytes.Buffer
	buf.WriteString("[LINE] 佐藤花子とのトーク履歴\n保存日時：2024/01/20 21:03\n\n")
	day := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)
	for written := 0; written < n; day = day.AddDate(0, 0, 1) {
		fmt.Fprintf(&buf, "%s(月)\n", day.Format("2006/01/02"))
		perDay := min(n-written, 1+rng.IntN(120))
		for range perDay {
			fmt.Fprintf(&buf, "%d:%02d\t%s\t%s\n", rng.IntN(24), rng.IntN(60), senders[rng.IntN(len(senders))], texts[rng.IntN(len(texts))])
		}
		buf.WriteString("\n")
		written += perDay
	}
	return buf.Bytes()
}

func BenchmarkReadText(b *testing.B) {
	for _, n := range []int{1_000, 36_000, paperMessages} {
		data := generateText(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				res, err := lineexport.ReadText("bench.txt", bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Messages) != n {
					b.Fatalf("got %d messages, want %d", len(res.Messages), n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "messages/s")
		})
	}
}
