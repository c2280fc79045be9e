package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

func TestStats(t *testing.T) {
	db := ingestSideDB(t)
	t.Run("missing database", func(t *testing.T) {
		code, _, stderr := ingestSideRun(t, "stats", "--db", db)
		if code != 1 || !strings.Contains(stderr, "no such database") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("empty file or folder", func(t *testing.T) {
		dir := t.TempDir()
		empty, folder := filepath.Join(dir, "empty.db"), filepath.Join(dir, "folder.db")
		if err := os.WriteFile(empty, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		for path, want := range map[string]string{empty: "an empty file, not a database yet", folder: "is a folder, not a database file"} {
			code, _, stderr := ingestSideRun(t, "stats", "--db", path)
			if code != 1 || !strings.Contains(stderr, want) {
				t.Errorf("stats --db %s: exit %d, stderr %q; want 1 and %q", filepath.Base(path), code, stderr, want)
			}
		}
		if fi, err := os.Stat(empty); err != nil || fi.Size() != 0 {
			t.Errorf("stats wrote to the empty file: %v, %v", fi.Size(), err)
		}
	})
	ingestSideMust(t, "ingest", "--db", db, conformance.Path("sources"))
	messages, chunks, uncovered := conformanceCounts(t)

	t.Run("json", func(t *testing.T) {
		out := ingestSideMust(t, "stats", "--json", "--db", db)
		var got struct {
			Sources, Messages, Chunks int
			Uncovered                 int `json:"uncovered_messages"`
			Summaries                 *int
			RawText                   *struct{ Mean, P95, Max float64 } `json:"raw_text_length"`
			SummaryLength             *json.RawMessage                  `json:"summary_length"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Sources != 3 || got.Messages != messages || got.Chunks != chunks || got.Uncovered != uncovered {
			t.Errorf("stats = %+v, want 3 sources, %d messages, %d chunks, %d uncovered", got, messages, chunks, uncovered)
		}
		if got.Summaries == nil || *got.Summaries != 0 || got.SummaryLength != nil {
			t.Errorf("summaries = %v, summary_length = %v; want 0 and absent", got.Summaries, got.SummaryLength)
		}
		// The pack holds one message over 5,000 characters and render-limit trimming.
		if got.RawText == nil || got.RawText.Max <= 5000 || got.RawText.Mean <= 0 || got.RawText.P95 > got.RawText.Max {
			t.Errorf("raw_text_length = %+v", got.RawText)
		}
		for _, key := range []string{`"sources"`, `"messages"`, `"chunks"`, `"uncovered_messages"`} {
			if !strings.Contains(out, key) {
				t.Errorf("stats --json lacks %s", key)
			}
		}
	})
	t.Run("table", func(t *testing.T) {
		out := ingestSideMust(t, "stats", "--db", db)
		for _, want := range []string{"LINE messages", thousands(messages), "Chunks", "Messages in no chunk"} {
			if !strings.Contains(out, want) {
				t.Errorf("stats table lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("stray argument", func(t *testing.T) {
		if code, _, _ := ingestSideRun(t, "stats", "--db", db, "extra"); code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
	})
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 22329: "22,329", 358896: "358,896", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestStatsShowsChatTitles: a .txt export's header names the chat; stats
// lists that title with its file name (text) and as chat_titles (JSON); a
// source without a title is not listed.
func TestStatsShowsChatTitles(t *testing.T) {
	dir := t.TempDir()
	const name = "[LINE] Tennis Club.txt"
	text := "[LINE] Chat history with Tennis Club\r\nSaved on: 2025/12/06 19:57\r\n\r\n2024/01/14(Sun)\r\n09:05\tKen\tgood morning\r\n09:06\tMe\thello back\r\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, dir, conformance.Path("sources"))

	var got struct {
		Sources    int
		ChatTitles []struct{ Source, Title string } `json:"chat_titles"`
	}
	if err := json.Unmarshal([]byte(ingestSideMust(t, "stats", "--json", "--db", db)), &got); err != nil {
		t.Fatal(err)
	}
	want := []struct{ Source, Title string }{{name, "Tennis Club"}}
	if got.Sources != 4 || len(got.ChatTitles) != 1 || got.ChatTitles[0] != want[0] {
		t.Errorf("stats --json: %d sources, chat_titles %+v; want 4 and %+v", got.Sources, got.ChatTitles, want)
	}
	out := ingestSideMust(t, "stats", "--db", db)
	var line string
	for l := range strings.Lines(out) {
		if strings.Contains(l, "Tennis Club") && strings.Contains(l, name) {
			line = l
		}
	}
	if !strings.Contains(out, "Chat titles (file)") || line == "" {
		t.Errorf("stats table lacks the chat title beside its file name:\n%s", out)
	}
}

// TestStatsTableLinesUpJapaneseTitles: the value column starts at the same
// terminal column on every row, a Japanese chat title (two columns a
// character) included.
func TestStatsTableLinesUpJapaneseTitles(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "testdata", "history"))
	out := ingestSideMust(t, "stats", "--db", db)
	column := -1
	for l := range strings.Lines(out) {
		l = strings.TrimRight(l, "\n")
		i := strings.LastIndex(l, "  ")
		if i < 0 {
			t.Fatalf("row %q has no gap before its value", l)
		}
		at := displayWidth(l[:i+2])
		if column < 0 {
			column = at
		}
		if at != column {
			t.Errorf("row %q: value at column %d, want %d (the header's)\n%s", l, at, column, out)
		}
	}
	if !strings.Contains(out, "家族") {
		t.Errorf("no Japanese chat title in:\n%s", out)
	}
}

func TestDisplayWidth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{{"", 0}, {"Emma", 4}, {"ゼミ同期", 2 * 4}, {"ＡＢ", 2 * 2}, {"ｶﾗｵｹ", 4}, {"  家族 x", 2 + 2*2 + 2}} {
		if got := displayWidth(c.s); got != c.want {
			t.Errorf("displayWidth(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
