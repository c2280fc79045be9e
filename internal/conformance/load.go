package conformance

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

// Questions reads the pack's questions.jsonl, failing tb on error.
func Questions(tb testing.TB) []questions.Question {
	tb.Helper()
	qs, err := questions.ReadFile(Path("questions.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	return qs
}

// QuestionSet reads the pack's questions.jsonl and qrels.txt, failing tb on
// error.
func QuestionSet(tb testing.TB) ([]questions.Question, ranking.Qrels) {
	tb.Helper()
	qs := Questions(tb)
	qrels, err := trec.ReadQrelsFile(Path("qrels.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return qs, qrels
}

// ReadJSON decodes the pack's JSON file name (relative to Dir) into v,
// failing tb on error.
func ReadJSON(tb testing.TB, name string, v any) {
	tb.Helper()
	b, err := os.ReadFile(Path(name))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatal(err)
	}
}

// ReadRun reads the pack's TREC run file name (relative to Dir, e.g.
// "expected_runs/summary_bm25.run"), failing tb on error.
func ReadRun(tb testing.TB, name string) ranking.Run {
	tb.Helper()
	return ReadRunFile(tb, Path(name))
}

// ReadRunFile reads the TREC run file at path, which need not be in the pack,
// failing tb on error.
func ReadRunFile(tb testing.TB, path string) ranking.Run {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	run, err := trec.ReadRun(path, f)
	if err != nil {
		tb.Fatal(err)
	}
	return run
}

// Message is one line of the pack's expected_messages.jsonl.
type Message struct {
	MessageID   string `json:"message_id"`
	Source      string `json:"source"`
	SourceOrder int    `json:"source_order"`
	Date        string `json:"date"`
	Time        string `json:"time"`
	OccurredAt  string `json:"occurred_at"`
	Sender      string `json:"sender"`
	Type        string `json:"type"`
	Text        string `json:"text"`
}

// ExpectedMessages reads expected_messages.jsonl in file order, failing tb on
// error.
func ExpectedMessages(tb testing.TB) []Message {
	tb.Helper()
	return ReadJSONL[Message](tb, "expected_messages.jsonl")
}

// Chunk is one line of the pack's expected_chunks.jsonl.
type Chunk struct {
	ChunkID    string   `json:"chunk_id"`
	Source     string   `json:"source"`
	ChunkIndex int      `json:"chunk_index"`
	StartAt    string   `json:"start_at"`
	EndAt      string   `json:"end_at"`
	MessageIDs []string `json:"message_ids"`
	RawText    string   `json:"raw_text"`
}

// ExpectedChunks reads expected_chunks.jsonl in file order, failing tb on
// error.
func ExpectedChunks(tb testing.TB) []Chunk {
	tb.Helper()
	return ReadJSONL[Chunk](tb, "expected_chunks.jsonl")
}

// ReadJSONL decodes every line of the pack's JSONL file name (relative to
// Dir) into a T, in file order, failing tb on error. A blank line is an
// error: the pack has none.
func ReadJSONL[T any](tb testing.TB, name string) []T {
	tb.Helper()
	f, err := os.Open(Path(name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s:%d: %v", name, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}
