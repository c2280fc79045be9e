package represent_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/represent"
)

func TestEmbeddingText(t *testing.T) {
	long := strings.Repeat("あ", represent.ExcerptChars) + "い"
	cases := []struct {
		name, summary, raw, want string
	}{
		{"empty parts", "", "", represent.EmbeddingTextPrefix + "\n\n" + represent.ExcerptLabel + "\n"},
		{"short raw kept whole", "要約", "2024-03-10 10:00 A: 明日", represent.EmbeddingTextPrefix + "\n要約\n原文抜粋:\n2024-03-10 10:00 A: 明日"},
		{"raw cut at 4000 code points", "S", long, represent.EmbeddingTextPrefix + "\nS\n原文抜粋:\n" + long[:len(long)-len("い")]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := represent.EmbeddingText(c.summary, c.raw); got != c.want {
				t.Errorf("EmbeddingText(%q, …) = %q…, want %q…", c.summary, head(got), head(c.want))
			}
		})
	}
}

func TestSummaryInput(t *testing.T) {
	exact := strings.Repeat("字", represent.SummaryInputChars)
	cases := []struct {
		name, raw, want string
	}{
		{"empty", "", represent.SummaryUserTemplate + "\n\n"},
		{"exactly 7000 kept", exact, represent.SummaryUserTemplate + "\n\n" + exact},
		{"7001 cut", exact + "x", represent.SummaryUserTemplate + "\n\n" + exact},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := represent.SummaryInput(c.raw); got != c.want {
				t.Errorf("SummaryInput: got %d bytes, want %d", len(got), len(c.want))
			}
		})
	}
}

func TestCapInput(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		cap     int
		want    string
		wantCut bool
	}{
		{"empty", "", 2000, "", false},
		{"equal to cap kept", "あいうえ", 4, "あいうえ", false},
		{"one over even cap", "あいうえお", 4, "あい\n…\nえお", true},
		{"odd cap floors both halves", "abcdefgh", 5, "ab\n…\ngh", true},
		{"cap zero", "abc", 0, "\n…\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, cut := represent.CapInput(c.text, c.cap)
			if got != c.want || cut != c.wantCut {
				t.Errorf("CapInput(%q, %d) = %q, %v; want %q, %v", c.text, c.cap, got, cut, c.want, c.wantCut)
			}
		})
	}
}

func TestTexts(t *testing.T) {
	chunks := []chat.Chunk{{ID: "c1", RawText: "raw one"}, {ID: "c2", RawText: "raw two"}, {ID: "c3", RawText: "raw three"}}
	all := map[string]string{"c1": "s1", "c2": "s2", "c3": "s3"}
	t.Run("empty corpus", func(t *testing.T) {
		for _, rep := range represent.Names {
			got, err := represent.Texts(rep, nil, nil)
			if err != nil || len(got) != 0 {
				t.Errorf("Texts(%q, nil) = %q, %v", rep, got, err)
			}
		}
	})
	t.Run("raw_text needs no summaries", func(t *testing.T) {
		got, err := represent.Texts(represent.RawText, chunks, nil)
		if err != nil || strings.Join(got, "|") != "raw one|raw two|raw three" {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("summary", func(t *testing.T) {
		got, err := represent.Texts(represent.Summary, chunks, all)
		if err != nil || strings.Join(got, "|") != "s1|s2|s3" {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("embedding_text", func(t *testing.T) {
		got, err := represent.Texts(represent.EmbeddingTextRep, chunks, all)
		if err != nil || got[1] != represent.EmbeddingText("s2", "raw two") {
			t.Errorf("got %q, %v", got, err)
		}
	})
	t.Run("missing summaries counted", func(t *testing.T) {
		_, err := represent.Texts(represent.EmbeddingTextRep, chunks, map[string]string{"c2": "s2"})
		if err == nil || !strings.Contains(err.Error(), "2 of 3 chunks have no summary") {
			t.Errorf("err = %v, want one counting 2 of 3 chunks", err)
		}
	})
	t.Run("everyday_text: embedding_text where a summary exists, raw_text elsewhere", func(t *testing.T) {
		got, err := represent.Texts(represent.EverydayTextRep, chunks, map[string]string{"c2": "s2"})
		want := []string{"raw one", represent.EmbeddingText("s2", "raw two"), "raw three"}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("got %q, %v; want %q", got, err, want)
		}
	})
	t.Run("unknown representation", func(t *testing.T) {
		if _, err := represent.Texts("title", chunks, all); err == nil {
			t.Error("Texts(\"title\") succeeded")
		}
	})
}

func head(s string) string {
	r := []rune(s)
	return string(r[:min(len(r), 60)])
}

func ExampleEmbeddingText() {
	fmt.Println(represent.EmbeddingText("部活の予定を相談している。", "2024-03-10 10:00 A: 明日の練習は？"))
	// Output:
	// これはユーザーのLINE履歴から作成した検索用チャンクです。
	// 部活の予定を相談している。
	// 原文抜粋:
	// 2024-03-10 10:00 A: 明日の練習は？
}

func ExampleCapInput() {
	fmt.Println(represent.CapInput("0123456789", 4))
	// Output:
	// 01
	// …
	// 89 true
}

// The texts of spec §7, pinned by SHA-256 of their UTF-8 bytes (computed
// from the spec's text, independently of the constants): a changed character,
// a dropped "。" or a different dash fails.
func TestPromptTextsArePinned(t *testing.T) {
	for _, c := range []struct{ name, text, sha256 string }{
		{"SummarySystemPrompt", represent.SummarySystemPrompt, "308aaf46d4066b0ccee2deda4e0dfbf7f8fedb0101de953d86f9d2f1fa833467"},
		{"SummaryUserTemplate", represent.SummaryUserTemplate, "ac5a7ad3b100b55b3e1a2168db64bea81026ce9c1c6f59347f235271b2b0144a"},
		{"EmbeddingTextPrefix", represent.EmbeddingTextPrefix, "e2fb6227116661eb8efea3052fa72dc75f8053b8b6f3404070e7659083c57a83"},
		{"ExcerptLabel", represent.ExcerptLabel, "2ca14aa268e16ba5d0d0ed5f096cf8a82206d178a3fdec4d06797dd1ce159884"},
	} {
		sum := sha256.Sum256([]byte(c.text))
		if got := hex.EncodeToString(sum[:]); got != c.sha256 {
			t.Errorf("%s = %q: sha256 %s, want %s (spec §7)", c.name, c.text, got, c.sha256)
		}
	}
	if !strings.HasSuffix(represent.SummarySystemPrompt, "書いてください。") {
		t.Errorf("SummarySystemPrompt must end with 書いてください。")
	}
}

func TestTextsNamesTheFirstChunkWithoutSummary(t *testing.T) {
	chunks := []chat.Chunk{{ID: "c1", RawText: "a"}, {ID: "c2", RawText: "b"}, {ID: "c3", RawText: "c"}}
	_, err := represent.Texts(represent.Summary, chunks, map[string]string{"c1": "s"})
	if err == nil || !strings.Contains(err.Error(), "2 of 3 chunks have no summary (first: c2)") {
		t.Errorf("Texts error = %v, want it to count 2 of 3 and name c2 first", err)
	}
}
