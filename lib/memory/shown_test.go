package memory_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// chatMemory is the memory of one chat with ゆい and みお, its lines after
// the header and the first date line (2024/05/03) given as in an export.
func chatMemory(t *testing.T, lines string) *memory.Memory {
	t.Helper()
	text := "[LINE] みおとのトーク履歴\n保存日時：2024/06/01 22:00\n\n2024/05/03(金)\n" + lines
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "[LINE] みお.txt"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := memory.Open(folderStore(t, dir), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNextMessageAfterTheWindow: a question asked late one evening is
// answered the next morning, after the three-hour gap that ends its window.
// The result shows the chat's first message after the window, unmarked,
// and nothing further; a window at the chat's end shows nothing after it.
func TestNextMessageAfterTheWindow(t *testing.T) {
	m := chatMemory(t,
		"22:00\tゆい\tおやすみ\n22:05\tゆい\t明日の集合場所ってどこだっけ\n"+
			"2024/05/04(土)\n"+
			"07:30\tみお\t駅の北口、集合場所は前と同じ\n07:31\tゆい\tありがとう\n")
	resp, err := m.Search(context.Background(), memory.Query{Text: "集合場所", K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) != 2 {
		t.Fatalf("%d results, want both windows", len(resp.Results))
	}
	shown := func(r memory.Result) (out []string) {
		for _, i := range r.Shown(memory.DefaultContext) {
			msg := r.Messages[i]
			out = append(out, fmt.Sprintf("%s %s %d", r.Role(i), msg.Text, len(msg.Matches)))
		}
		return out
	}
	evening, morning := resp.Results[0], resp.Results[1]
	if evening.StartAt.Day() != 3 {
		evening, morning = morning, evening
	}
	want := map[string][]string{
		"evening": {"context おやすみ 0", "match 明日の集合場所ってどこだっけ 1", "next 駅の北口、集合場所は前と同じ 0"},
		"morning": {"match 駅の北口、集合場所は前と同じ 1", "reply ありがとう 0"},
	}
	for name, r := range map[string]memory.Result{"evening": evening, "morning": morning} {
		if got := shown(r); !slices.Equal(got, want[name]) {
			t.Errorf("%s window: shown %q, want %q", name, got, want[name])
		}
	}
	if evening.InWindow() != 2 || len(evening.Messages) != 3 || morning.InWindow() != 2 || len(morning.Messages) != 2 {
		t.Errorf("messages %d and %d, in the windows %d and %d; want 3 and 2, 2 and 2", len(evening.Messages), len(morning.Messages), evening.InWindow(), morning.InWindow())
	}
}

// TestLiteralFallbackSkipsLatinStems: under everyday a Latin question term
// is a stem, no word as written, so the literal fallback (no BM25 hit) never
// looks for it inside a longer word: "ball" finds nothing in "football",
// where a search as written would mark a fragment.
func TestLiteralFallbackSkipsLatinStems(t *testing.T) {
	m := chatMemory(t,
		"18:00\tゆい\tfootball practice at six\n18:05\tみお\tbuzzz baaad\n")
	// each question's only letters are inside a longer word of the chat;
	// zzz and aaa are Latin by their last and first letters alone
	for _, q := range []string{"ball", "zzz", "aaa"} {
		resp, err := m.Search(context.Background(), memory.Query{Text: q, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) != 0 {
			t.Errorf("%d results for %q, found only inside longer words: %+v", len(resp.Results), q, resp.Results[0].Messages)
		}
	}
}

// TestSourcesCountChunks: Sources gives each chat its number of windows,
// together all of them.
func TestSourcesCountChunks(t *testing.T) {
	st := historyStore(t)
	ids, err := st.ChunkIDs()
	if err != nil {
		t.Fatal(err)
	}
	m, err := memory.Open(st, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sources, err := m.Sources()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range sources {
		if s.Chunks < 1 {
			t.Errorf("%s: %d chunks", s.Name, s.Chunks)
		}
		total += s.Chunks
	}
	if total != len(ids) {
		t.Errorf("the sources' chunks add up to %d, want the store's %d", total, len(ids))
	}
}

// TestRepliesAndCarriersReachThreeMessages: in one window, the reply to a
// matched message is the first message by someone else among the next
// ReplyReach, and a line carrying what is asked is shown up to ReplyReach
// messages on either side: here both lie exactly ReplyReach away.
func TestRepliesAndCarriersReachThreeMessages(t *testing.T) {
	m := chatMemory(t,
		"18:00\tみお\t10時はどう\n18:01\tみお\tほかの人にも聞いてみる\n18:02\tみお\tうーん\n"+
			"18:03\tゆい\t集合時間いつにする\n18:04\tゆい\tまだ決めてない\n18:05\tゆい\tちょっと待って\n"+
			"18:06\tみお\tじゃあ11時で\n18:07\tみお\tよろしく\n18:08\tゆい\tおけ\n")
	resp, err := m.Search(context.Background(), memory.Query{Text: "集合時間いつ", K: 1})
	if err != nil || len(resp.Results) != 1 {
		t.Fatalf("%d results, %v; want 1", len(resp.Results), err)
	}
	r := resp.Results[0]
	if !slices.Equal(r.Matched, []int{3}) || !slices.Equal(r.Replies, []int{6}) || !slices.Equal(r.Carriers, []int{0, 6}) {
		t.Errorf("matched %v, replies %v, carriers %v; want [3], [6], [0 6]", r.Matched, r.Replies, r.Carriers)
	}
}

// TestSearchReturnsKRanked: a search returns the first K windows, ranked
// from 1, and K of them when more match.
func TestSearchReturnsKRanked(t *testing.T) {
	m, err := memory.Open(historyStore(t), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := m.Search(context.Background(), memory.Query{Text: "鍋 保険証 シフト", K: memory.MaxK})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Results) < 4 {
		t.Fatalf("%d results, want at least 4 to cut", len(all.Results))
	}
	for _, k := range []int{1, 3} {
		resp, err := m.Search(context.Background(), memory.Query{Text: "鍋 保険証 シフト", K: k})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Results) != k {
			t.Fatalf("K = %d: %d results", k, len(resp.Results))
		}
		for i, r := range resp.Results {
			if r.Rank != i+1 || r.ChunkID != all.Results[i].ChunkID {
				t.Errorf("K = %d: result %d is rank %d %s, want rank %d %s", k, i, r.Rank, r.ChunkID, i+1, all.Results[i].ChunkID)
			}
		}
	}
}

// TestLiteralFallbackScoresBytesCovered: the literal fallback scores a
// window by the bytes its matches cover, the most first.
func TestLiteralFallbackScoresBytesCovered(t *testing.T) {
	m, err := memory.Open(historyStore(t), memory.Options{Tokenizer: "paper-regex"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "保険", K: 5})
	if err != nil || len(resp.Results) == 0 {
		t.Fatalf("%d results, %v", len(resp.Results), err)
	}
	for i, r := range resp.Results {
		want := float64(len("保険") * strings.Count(r.RawText, "保険"))
		if r.Score != want {
			t.Errorf("%s: score %v, want %v bytes covered", r.ChunkID, r.Score, want)
		}
		if i > 0 && r.Score > resp.Results[i-1].Score {
			t.Errorf("%s scores %v above #%d's %v", r.ChunkID, r.Score, i, resp.Results[i-1].Score)
		}
	}
}
