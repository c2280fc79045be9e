package answer_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

var t0 = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

// chunk builds a result whose messages are "sender|text" lines, one minute apart.
func chunk(id, source string, lines ...string) memory.Result {
	r := memory.Result{ChunkID: id, Source: source, StartAt: t0, EndAt: t0.Add(time.Duration(len(lines)) * time.Minute)}
	for i, l := range lines {
		sender, text, _ := strings.Cut(l, "|")
		r.Messages = append(r.Messages, memory.Message{ID: fmt.Sprintf("%s-m%d", id, i+1), At: t0.Add(time.Duration(i) * time.Minute), Sender: sender, Type: "text", Text: text})
	}
	return r
}

func TestBuildPromptNumbersChunksInOrder(t *testing.T) {
	chunks := []memory.Result{
		chunk("c-a", "chat_haruka.json", "遥|映画のチケット取れた", "自分|ありがと"),
		chunk("c-b", "chat_kenta.json", "健太|バイト決まった"),
	}
	p, err := answer.BuildPrompt("映画は何？", chunks, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != answer.PromptVersion || !strings.HasPrefix(p.Version, "ja-1+") || len(p.Version) != len("ja-1+")+12 {
		t.Errorf("Version = %q, want ja-1+ and 12 hex digits", p.Version)
	}
	if p.Instructions != answer.Instructions || !strings.Contains(p.Instructions, answer.AbstainPhrase) {
		t.Errorf("instructions do not name the abstention phrase %q", answer.AbstainPhrase)
	}
	want := []string{
		"質問: 映画は何？",
		"[1] chat_haruka.json 2024-05-01 10:00〜2024-05-01 10:02\n2024-05-01 10:00 遥: 映画のチケット取れた\n2024-05-01 10:01 自分: ありがと",
		"[2] chat_kenta.json 2024-05-01 10:00〜2024-05-01 10:01\n2024-05-01 10:00 健太: バイト決まった",
	}
	last := -1
	for _, w := range want {
		i := strings.Index(p.Input, w)
		if i <= last {
			t.Fatalf("input lacks %q in order:\n%s", w, p.Input)
		}
		last = i
	}
	if len(p.Chunks) != 2 || p.Chunks[1].N != 2 || p.Chunks[1].ChunkID != "c-b" || len(p.Truncated()) != 0 {
		t.Errorf("chunks = %+v", p.Chunks)
	}
	if got := utf8.RuneCountInString(p.Input); got != p.SourceChars {
		t.Errorf("uncut input has %d code points, SourceChars = %d", got, p.SourceChars)
	}
}

func TestBuildPromptTruncatesToCap(t *testing.T) {
	long := make([]string, 30)
	for i := range long {
		long[i] = "健太|" + strings.Repeat("あ", 40)
	}
	chunks := []memory.Result{
		chunk("short", "s.json", "遥|短い"),
		chunk("long1", "l.json", long...),
		chunk("long2", "l.json", long...),
	}
	full, err := answer.BuildPrompt("何？", chunks, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, capChars := range []int{600, 1000, 2000} {
		t.Run(fmt.Sprint(capChars), func(t *testing.T) {
			p, err := answer.BuildPrompt("何？", chunks, capChars, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n := utf8.RuneCountInString(p.Input); n > capChars {
				t.Errorf("input has %d code points, cap %d", n, capChars)
			}
			if p.SourceChars != full.SourceChars {
				t.Errorf("SourceChars = %d, want %d", p.SourceChars, full.SourceChars)
			}
			// The short chunk keeps everything; the long ones share the rest equally.
			if !slices.Equal(p.Truncated(), []int{2, 3}) {
				t.Errorf("Truncated = %v, want [2 3]", p.Truncated())
			}
			if !strings.Contains(p.Input, "[1] s.json") || !strings.Contains(p.Input, "遥: 短い") || !strings.Contains(p.Input, "[3] l.json") {
				t.Errorf("a header or the short chunk is missing:\n%s", p.Input)
			}
			if len(p.Chunks[1].MessageIDs) != len(p.Chunks[2].MessageIDs) || len(p.Chunks[1].MessageIDs) >= 30 {
				t.Errorf("long chunks kept %d and %d messages, want equal and < 30", len(p.Chunks[1].MessageIDs), len(p.Chunks[2].MessageIDs))
			}
		})
	}
	t.Run("too small", func(t *testing.T) {
		if _, err := answer.BuildPrompt("何？", chunks, 50, nil); err == nil {
			t.Error("a cap below the headers was accepted")
		}
	})
}

func TestParseCitations(t *testing.T) {
	cases := []struct {
		name                  string
		text                  string
		valid, invalid, dupes []int
	}{
		{"valid", "薬院駅です [1]。理由は [2][3]", []int{1, 2, 3}, nil, nil},
		{"list and full width", "ルミエール［２］、ネックレス[1、3]", []int{2, 1, 3}, nil, nil},
		{"out of range", "答え [0] [4] [2]", []int{2}, []int{0, 4}, nil},
		{"none", "履歴からは分かりません", nil, nil, nil},
		{"duplicated", "A [1]。B [1][2]。C [1, 2] [9] [9]", []int{1, 2}, []int{9}, []int{1, 2, 9}},
		{"not a citation", "[メモ] 10:00 [a]", nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := answer.ParseCitations(c.text, 3)
			if !slices.Equal(got.Valid, c.valid) || !slices.Equal(got.Invalid, c.invalid) || !slices.Equal(got.Duplicates, c.dupes) {
				t.Errorf("ParseCitations(%q) = %+v, want valid %v invalid %v duplicates %v", c.text, got, c.valid, c.invalid, c.dupes)
			}
		})
	}
}

func ExampleParseCitations() {
	c := answer.ParseCitations("薬院駅です [2]。前にも話していました [2][7]", 5)
	fmt.Println(c.Valid, c.Invalid, c.Duplicates)
	fmt.Println(answer.StripCitations("薬院駅です [2]"))
	// Output:
	// [2] [7] [2]
	// 薬院駅です
}

func TestExtractive(t *testing.T) {
	tok, err := tokenize.New("char-bigram")
	if err != nil {
		t.Fatal(err)
	}
	chunks := []memory.Result{
		chunk("c1", "family.json", "母|今日は寒いね", "自分|そうだね"),
		chunk("c2", "misaki.json", "美咲|新しい部屋決まったよ", "自分|どのへん？", "美咲|薬院駅から歩いて5分"),
		chunk("c3", "misaki.json", "美咲|新しい部屋決まったよ", "自分|どのへん？"), // overlapping window: same IDs as c2
	}
	chunks[2].Messages[0].ID, chunks[2].Messages[1].ID = "c2-m1", "c2-m2"
	ex := answer.NewExtractive(tok)
	if ex.Name() != answer.ExtractiveName || ex.Model() != "bm25-message+next/char-bigram" {
		t.Errorf("Name, Model = %q, %q", ex.Name(), ex.Model())
	}
	t.Run("best message and the next", func(t *testing.T) {
		a, err := ex.Answer(context.Background(), "美咲の新しい部屋の最寄り駅は？", chunks)
		if err != nil {
			t.Fatal(err)
		}
		// "新しい部屋" shares the most bigrams; the station follows it in c2.
		if a.Abstained || a.Text != "新しい部屋決まったよ どのへん？ [2]" {
			t.Errorf("answer = %q (abstained %v)", a.Text, a.Abstained)
		}
		if len(a.Citations) != 1 || a.Citations[0].N != 2 || a.Citations[0].ChunkID != "c2" || !slices.Equal(a.Citations[0].MessageIDs, []string{"c2-m1", "c2-m2"}) {
			t.Errorf("citations = %+v", a.Citations)
		}
		if got := answer.ParseCitations(a.Text, len(chunks)); !slices.Equal(got.Valid, []int{2}) {
			t.Errorf("the answer's own citation parses as %+v", got)
		}
		if !slices.Equal(a.Chunks, []string{"c1", "c2", "c3"}) || a.Provider != answer.ExtractiveName {
			t.Errorf("chunks, provider = %v, %q", a.Chunks, a.Provider)
		}
	})
	t.Run("station", func(t *testing.T) {
		a, _ := ex.Answer(context.Background(), "薬院駅から何分？", chunks)
		if a.Text != "薬院駅から歩いて5分 [2]" || !slices.Equal(a.Citations[0].MessageIDs, []string{"c2-m3"}) {
			t.Errorf("answer = %q, citations %+v (last message of a chunk has no next)", a.Text, a.Citations)
		}
	})
	t.Run("nothing matches", func(t *testing.T) {
		a, _ := ex.Answer(context.Background(), "ＸＹＺ", chunks)
		if !a.Abstained || a.Text != answer.AbstainPhrase || len(a.Citations) != 0 {
			t.Errorf("answer = %+v, want an abstention", a)
		}
	})
	t.Run("no chunks", func(t *testing.T) {
		a, _ := ex.Answer(context.Background(), "駅は？", nil)
		if !a.Abstained {
			t.Errorf("answer without chunks = %+v, want an abstention", a)
		}
	})
}
