package memory_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/store"
)

// folderStore ingests the LINE exports under dir into a new database.
func folderStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "folder.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	inputs, problems := ingest.Collect([]string{dir})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	ingest.Files(st, inputs, chunking.DefaultOptions(), func(_ int, _ ingest.Input, _ ingest.Report, err error) {
		if err != nil {
			t.Fatal(err)
		}
	})
	return st
}

// TestEveryResultShowsMessagesOrSaysWhy runs every question of the mixed
// history (answerable and not) and of the synthetic corpus with the
// everyday defaults: every result shows at least one message or says why
// it was ranked, the confidence is never missing, and a search without
// results has confidence 0, low.
func TestEveryResultShowsMessagesOrSaysWhy(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, set := range []struct {
		name, sources string
		questions     []string
	}{
		{"mixed", filepath.Join(root, "testdata", "mixed", "sources"), []string{filepath.Join(root, "testdata", "mixed", "questions.jsonl"), filepath.Join(root, "testdata", "mixed", "noanswer.jsonl")}},
		{"synthetic", filepath.Join(root, "data", "synthetic", "sources"), []string{filepath.Join(root, "data", "synthetic", "questions.jsonl")}},
	} {
		t.Run(set.name, func(t *testing.T) {
			m, err := memory.Open(folderStore(t, set.sources), memory.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var qs []questions.Question
			for _, f := range set.questions {
				more, err := questions.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				qs = append(qs, more...)
			}
			for _, q := range append(qs, questions.Question{QID: "none", Question: "zqzqzq xqxq"}) {
				resp, err := m.Search(context.Background(), memory.Query{Text: q.Question, K: memory.DefaultK})
				if err != nil {
					t.Fatal(err)
				}
				if resp.Confidence == nil {
					t.Errorf("%s %q: no confidence", q.QID, q.Question)
					continue
				}
				if len(resp.Results) == 0 && (resp.Confidence.Value != 0 || !resp.Confidence.Low) {
					t.Errorf("%s %q: no result, confidence %+v; want 0, low", q.QID, q.Question, *resp.Confidence)
				}
				for _, r := range resp.Results {
					if len(r.Shown(memory.DefaultContext)) == 0 && r.Why == "" {
						t.Errorf("%s %q: #%d shows no message and gives no reason", q.QID, q.Question, r.Rank)
					}
				}
			}
		})
	}
}

// TestNotFoundNamesMissingWords: a low confidence names the question's
// words that no window holds, as typed.
func TestNotFoundNamesMissingWords(t *testing.T) {
	m, err := memory.Open(folderStore(t, filepath.Join("..", "..", "testdata", "mixed", "sources")), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "how much was the zqzq xylophone", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if c := resp.Confidence; c == nil || !c.Low || !slices.Equal(c.Missing, []string{"zqzq", "xylophone"}) {
		t.Fatalf("confidence %+v; want low, missing zqzq and xylophone", c)
	}
	const want = `the history may not hold the answer: it never contains "zqzq", "xylophone"`
	if got := memory.NotFoundNote(*resp.Confidence); got[:len(want)] != want {
		t.Errorf("note %q, want it to start with %q", got, want)
	}
}

func TestGuessMe(t *testing.T) {
	cases := []struct {
		name, dir, want string
	}{
		// 自分 wrote in every synthetic chat
		{"synthetic", filepath.Join("..", "..", "data", "synthetic", "sources"), "自分"},
		// the owner is called differently in each mixed chat (自分, じぶん, …)
		{"mixed", filepath.Join("..", "..", "testdata", "mixed", "sources"), ""},
		// one 1:1 chat: its title names the other person
		{"one two-person chat", oneChat(t, "ゆい", "みお", "ゆい"), "みお"},
		// one chat of three: nobody is singled out
		{"one group chat", oneChat(t, "家族", "母", "みお", "父"), ""},
	}
	for _, c := range cases {
		m, err := memory.Open(folderStore(t, c.dir), memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := m.GuessMe(); err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// oneChat writes a one-day export titled title in which each of senders
// writes one line, alone in a new folder, and returns the folder.
func oneChat(t *testing.T, title string, senders ...string) string {
	t.Helper()
	text := "[LINE] " + title + "とのトーク履歴\n保存日時：2024/06/01 22:00\n\n2024/05/03(金)\n"
	for i, s := range senders {
		text += fmt.Sprintf("09:%02d\t%s\tおはよう\n", i, s)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "[LINE] "+title+".txt"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}
