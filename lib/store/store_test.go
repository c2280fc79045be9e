package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/store"
)

func openTemp(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "linemem.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// smallOptions make overlapping windows out of a handful of messages.
var smallOptions = chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 5000}

// messages returns n messages of source, one minute apart, with texts
// "{prefix} i".
func messages(source string, n int, prefix string) []chat.Message {
	start := time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC)
	out := make([]chat.Message, n)
	for i := range out {
		at := start.Add(time.Duration(i) * time.Minute)
		m := chat.Message{Source: source, SourceOrder: i, Date: at.Format(chat.DateLayout), Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: chat.TextType, Text: fmt.Sprint(prefix, " ", i)}
		m.ID = chat.MessageID(m)
		out[i] = m
	}
	return out
}

type ingested struct {
	msgs   []chat.Message
	chunks []chat.Chunk
}

func ingest(t *testing.T, st *store.Store, source, sha string, opts chunking.Options, msgs []chat.Message) (ingested, store.IngestOutcome) {
	t.Helper()
	chunks, err := chunking.Build(msgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	outcome, err := st.IngestSource(source, sha, int64(len(msgs)), opts, msgs, chunks)
	if err != nil {
		t.Fatal(err)
	}
	return ingested{msgs, chunks}, outcome
}

// TestOpenKeepsPageSize: a file created elsewhere (here by SQLite at its
// default page size) keeps its page size; an empty file gets store.PageSize.
func TestOpenKeepsPageSize(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	raw, err := sql.Open("sqlite", "file:"+existing)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA page_size = 4096; VACUUM`); err != nil { // a file with a header and no table (one with tables is refused: TestOpenRefusesUnversioned)
		t.Fatal(err)
	}
	raw.Close()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{existing: 4096, empty: store.PageSize} {
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := st.DB().QueryRow(`PRAGMA page_size`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if got != want {
			t.Errorf("%s: page_size = %d, want %d", filepath.Base(path), got, want)
		}
	}
}

func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "linemem.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for pragma, want := range map[string]string{
		"user_version": fmt.Sprint(store.SchemaVersion()),
		"journal_mode": "wal",
		"foreign_keys": "1",
		"page_size":    fmt.Sprint(store.PageSize),
	} {
		var got string
		if err := st.DB().QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
	t.Run("reopen keeps data", func(t *testing.T) {
		ingest(t, st, "a.json", "sha-a", smallOptions, messages("a.json", 5, "x"))
		st.Close()
		st2, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st2.Close()
		stats, err := st2.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if stats.Messages != 5 {
			t.Errorf("messages after reopen = %d, want 5", stats.Messages)
		}
	})
	t.Run("newer schema refused", func(t *testing.T) {
		newer := filepath.Join(t.TempDir(), "newer.db")
		st, err := store.Open(newer)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1)); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if st, err := store.Open(newer); err == nil {
			st.Close()
			t.Error("Open accepted a database from a newer schema")
		}
	})
	t.Run("concurrent first opens", func(t *testing.T) {
		fresh := filepath.Join(t.TempDir(), "fresh.db")
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				st, err := store.Open(fresh)
				if err == nil {
					err = st.Close()
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
	t.Run("empty path", func(t *testing.T) {
		if _, err := store.Open(""); err == nil {
			t.Error("Open(\"\") succeeded")
		}
	})
}

// writeLog counts row writes to the ingest tables through triggers, so a test
// can tell "nothing written" from "the same rows written again".
func writeLog(t *testing.T, st *store.Store) func() int {
	t.Helper()
	stmts := []string{`CREATE TABLE test_write_log (n INTEGER)`}
	for _, table := range []string{"sources", "message_blocks", "chunks", "summaries", "vectors", "vector_blocks"} {
		for _, op := range []string{"INSERT", "UPDATE", "DELETE"} {
			stmts = append(stmts, fmt.Sprintf(`CREATE TRIGGER test_log_%s_%s AFTER %s ON %s BEGIN INSERT INTO test_write_log VALUES (1); END`,
				table, strings.ToLower(op), op, table))
		}
	}
	for _, s := range stmts {
		if _, err := st.DB().Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return func() int {
		var n int
		if err := st.DB().QueryRow(`SELECT count(*) FROM test_write_log`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
}

func TestIngestRoundTrip(t *testing.T) {
	st := openTemp(t)
	t.Run("empty store", func(t *testing.T) {
		chunks, err := st.Chunks()
		if err != nil || len(chunks) != 0 {
			t.Errorf("Chunks() = %v, %v; want none", chunks, err)
		}
		stats, err := st.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if stats.Sources != 0 || stats.Messages != 0 || stats.Chunks != 0 || stats.RawTextLength != (store.LengthStats{}) {
			t.Errorf("Stats() of an empty store = %+v", stats)
		}
	})
	b, outcome := ingest(t, st, "b.json", "sha-b", smallOptions, messages("b.json", 7, "bee"))
	if outcome != store.Added {
		t.Errorf("outcome = %v, want added", outcome)
	}
	a, _ := ingest(t, st, "a.json", "sha-a", smallOptions, messages("a.json", 4, "ant"))

	t.Run("chunks ordered by source then index", func(t *testing.T) {
		got, err := st.Chunks()
		if err != nil {
			t.Fatal(err)
		}
		want := append(slices.Clone(a.chunks), b.chunks...)
		if len(got) != len(want) {
			t.Fatalf("got %d chunks, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].ID || got[i].Source != want[i].Source || got[i].Index != want[i].Index ||
				got[i].StartAt != want[i].StartAt || got[i].EndAt != want[i].EndAt ||
				got[i].RawText != want[i].RawText || !slices.Equal(got[i].MessageIDs, want[i].MessageIDs) {
				t.Errorf("chunk %d = %+v, want %+v", i, got[i], want[i])
			}
		}
	})
	t.Run("messages by source order", func(t *testing.T) {
		got, err := st.Messages("b.json")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, b.msgs, func(x, y chat.Message) bool { return x == y }) {
			t.Errorf("Messages = %+v, want %+v", got, b.msgs)
		}
		if none, err := st.Messages("missing.json"); err != nil || len(none) != 0 {
			t.Errorf("Messages(missing) = %v, %v", none, err)
		}
	})
	t.Run("chunk IDs of a message in the overlap", func(t *testing.T) {
		// Window 4, stride 3 over 7 messages: [0,4), [3,7); message 3 is in both.
		got, err := st.ChunkIDsOfMessage(b.msgs[3].ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{b.chunks[0].ID, b.chunks[1].ID}; !slices.Equal(got, want) {
			t.Errorf("ChunkIDsOfMessage = %v, want %v", got, want)
		}
		if got, _ := st.ChunkIDsOfMessage("0000000000000000"); len(got) != 0 {
			t.Errorf("unknown message is in chunks %v", got)
		}
	})
	t.Run("sources", func(t *testing.T) {
		got, err := st.Sources()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Name != "a.json" || got[1].Name != "b.json" {
			t.Fatalf("Sources = %+v", got)
		}
		if got[1].ContentSHA256 != "sha-b" || got[1].Size != 7 || got[1].Options != smallOptions ||
			got[1].Messages != 7 || got[1].Chunks != len(b.chunks) || got[1].IngestedAt.IsZero() {
			t.Errorf("b.json = %+v", got[1])
		}
	})
	t.Run("stats", func(t *testing.T) {
		stats, err := st.Stats()
		if err != nil {
			t.Fatal(err)
		}
		var lengths []int
		for _, c := range append(slices.Clone(a.chunks), b.chunks...) {
			lengths = append(lengths, utf8.RuneCountInString(c.RawText))
		}
		want := store.Stats{Sources: 2, Messages: 11, Chunks: len(a.chunks) + len(b.chunks), RawTextLength: store.DescribeLengths(lengths)}
		if fmt.Sprint(stats) != fmt.Sprint(want) {
			t.Errorf("Stats = %+v, want %+v", stats, want)
		}
	})
}

func TestIngestOutcomes(t *testing.T) {
	st := openTemp(t)
	original := messages("s.json", 7, "v1")
	first, _ := ingest(t, st, "s.json", "sha-1", smallOptions, original)
	// Editing message 6 keeps chunk 0 ([0,4)) and changes chunk 1 ([3,7)).
	if err := st.PutSummaries([]store.SummaryRow{
		{ChunkID: first.chunks[0].ID, Summary: "kept", Origin: "test"},
		{ChunkID: first.chunks[1].ID, Summary: "gone", Origin: "test"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutChunkVectors(store.RepSummary, "m", 0, []store.VectorRow{
		{Key: first.chunks[0].ID, Vector: []float32{1, 0}}, {Key: first.chunks[1].ID, Vector: []float32{0, 1}},
	}); err != nil {
		t.Fatal(err)
	}
	writes := writeLog(t, st)

	t.Run("same content and options writes nothing", func(t *testing.T) {
		before := writes()
		if _, outcome := ingest(t, st, "s.json", "sha-1", smallOptions, original); outcome != store.Unchanged {
			t.Errorf("outcome = %v, want unchanged", outcome)
		}
		if n := writes() - before; n != 0 {
			t.Errorf("%d row writes for an unchanged source", n)
		}
	})
	t.Run("changed content replaces", func(t *testing.T) {
		edited := slices.Clone(original)
		edited[6].Text = "edited"
		edited[6].ID = chat.MessageID(edited[6])
		second, outcome := ingest(t, st, "s.json", "sha-2", smallOptions, edited)
		if outcome != store.Replaced {
			t.Errorf("outcome = %v, want replaced", outcome)
		}
		if second.chunks[0].ID != first.chunks[0].ID || second.chunks[1].ID == first.chunks[1].ID {
			t.Fatal("test data does not keep exactly chunk 0")
		}
		chunks, _ := st.Chunks()
		if len(chunks) != len(second.chunks) {
			t.Errorf("%d chunks stored, want %d", len(chunks), len(second.chunks))
		}
		msgs, _ := st.Messages("s.json")
		if len(msgs) != 7 || msgs[6].Text != "edited" {
			t.Errorf("messages stored = %+v, want 7 with the edit", msgs)
		}
		summaries, _ := st.Summaries()
		if want := map[string]string{first.chunks[0].ID: "kept"}; fmt.Sprint(summaries) != fmt.Sprint(want) {
			t.Errorf("summaries = %v, want %v", summaries, want)
		}
		ids, _, _, _ := st.ChunkVectors(store.RepSummary, "m")
		if !slices.Equal(ids, []string{first.chunks[0].ID}) {
			t.Errorf("vectors left for %v, want only the surviving chunk", ids)
		}
	})
	t.Run("changed options replace", func(t *testing.T) {
		opts := smallOptions
		opts.Lossless = true
		if _, outcome := ingest(t, st, "s.json", "sha-2", opts, messages("s.json", 9, "v1")); outcome != store.Replaced {
			t.Errorf("outcome = %v, want replaced", outcome)
		}
	})
	t.Run("bad input writes nothing", func(t *testing.T) {
		before := writes()
		msgs := messages("s.json", 5, "v3")
		chunks, _ := chunking.Build(msgs, smallOptions)
		for _, tc := range []struct {
			name   string
			source string
			msgs   []chat.Message
			chunks []chat.Chunk
		}{
			{"message of another source", "t.json", msgs, nil},
			{"chunk member not among messages", "s.json", msgs[:2], chunks},
			{"empty name", "", nil, nil},
		} {
			if _, err := st.IngestSource(tc.source, "sha-3", 1, smallOptions, tc.msgs, tc.chunks); err == nil {
				t.Errorf("%s: no error", tc.name)
			}
		}
		if _, err := st.IngestSource("s.json", "sha-3", 1, chunking.Options{}, msgs, chunks); err == nil {
			t.Error("invalid options: no error")
		}
		if n := writes() - before; n != 0 {
			t.Errorf("%d row writes after rejected ingests", n)
		}
	})
}

func TestDescribeLengths(t *testing.T) {
	oneToTwenty := make([]int, 20)
	for i := range oneToTwenty {
		oneToTwenty[len(oneToTwenty)-1-i] = i + 1 // descending: the function must sort
	}
	for _, tc := range []struct {
		name    string
		lengths []int
		want    store.LengthStats
	}{
		{"empty", nil, store.LengthStats{}},
		{"one", []int{7}, store.LengthStats{Mean: 7, P95: 7, Max: 7}},
		// h = (20 − 1)·0.95 = 18.05 → x₁₈ + 0.05·(x₁₉ − x₁₈) = 19 + 0.05
		{"1..20", oneToTwenty, store.LengthStats{Mean: 210.0 / 20, P95: 19 + 0.05, Max: 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const tol = 1e-12 // the interpolation reassociates one product
			got := store.DescribeLengths(tc.lengths)
			if math.Abs(got.Mean-tc.want.Mean) > tol || math.Abs(got.P95-tc.want.P95) > tol || got.Max != tc.want.Max {
				t.Errorf("DescribeLengths = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestIngestOutcomeString(t *testing.T) {
	for o, want := range map[store.IngestOutcome]string{store.Unchanged: "unchanged", store.Added: "added", store.Replaced: "replaced"} {
		if o.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(o), o.String(), want)
		}
	}
}

func TestValidRep(t *testing.T) {
	for _, rep := range store.Reps {
		if err := store.ValidRep(rep); err != nil {
			t.Errorf("ValidRep(%q) = %v", rep, err)
		}
	}
	if err := store.ValidRep("raw"); err == nil {
		t.Error(`ValidRep("raw") accepted`)
	}
	var inputErr *store.InputError
	if errors.As(store.ValidRep("raw"), &inputErr) {
		t.Error("a bad rep is not an input file error")
	}
}

func TestSourceAndUncovered(t *testing.T) {
	st := openTemp(t)
	t.Run("empty store", func(t *testing.T) {
		if _, found, err := st.Source("s.json"); found || err != nil {
			t.Errorf("Source on an empty store: found %v, err %v", found, err)
		}
		if n, err := st.UncoveredMessages("s.json"); n != 0 || err != nil {
			t.Errorf("UncoveredMessages = %d, %v", n, err)
		}
	})
	msgs := messages("s.json", 6, "m")
	msgs[1].Text = strings.Repeat("長", 60)
	msgs[1].ID = chat.MessageID(msgs[1])
	// Window 4, stride 3, limit 100: [0,4) trims to [0,1) since message 1 alone
	// overflows with message 0; [3,6) fits. Messages 1 and 2 are in no chunk.
	opts := chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 100}
	in, _ := ingest(t, st, "s.json", "sha", opts, msgs)
	info, found, err := st.Source("s.json")
	if err != nil || !found || info.Messages != 6 || info.Chunks != len(in.chunks) || info.Options != opts {
		t.Errorf("Source = %+v, %v, %v", info, found, err)
	}
	want := chunking.Uncovered(msgs, in.chunks)
	if want != 2 {
		t.Fatalf("test data leaves %d messages uncovered, want 2", want)
	}
	if n, err := st.UncoveredMessages("s.json"); n != want || err != nil {
		t.Errorf("UncoveredMessages = %d, %v; want %d", n, err, want)
	}
	if stats, _ := st.Stats(); stats.UncoveredMessages != want {
		t.Errorf("Stats().UncoveredMessages = %d, want %d", stats.UncoveredMessages, want)
	}
}

func ExampleStore_IngestSource() {
	st, err := store.Open(":memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	at := time.Date(2024, 1, 14, 9, 30, 0, 0, time.UTC)
	m := chat.Message{Source: "friend.json", Date: "2024-01-14", Time: "09:30:00", OccurredAt: at,
		Sender: "A", Type: "text", Text: "What time tomorrow?"}
	m.ID = chat.MessageID(m)
	msgs := []chat.Message{m}
	chunks, _ := chunking.Build(msgs, chunking.DefaultOptions())
	for _, sha := range []string{"sha-1", "sha-1", "sha-2"} {
		outcome, err := st.IngestSource("friend.json", sha, 42, chunking.DefaultOptions(), msgs, chunks)
		fmt.Println(outcome, err)
	}
	// Output:
	// added <nil>
	// unchanged <nil>
	// replaced <nil>
}

// TestLookupByOddIDs checks that messages are found by IDs that JSON must
// escape or that look like the layout of the stored key entries, and by
// plain IDs stored beside them.
func TestLookupByOddIDs(t *testing.T) {
	st := openTemp(t)
	msgs := messages("s.json", 12, "m")
	odd := []string{`a"b`, `[",5],["`, `,5],[`, `x[`, `\`, "長い", "é", "a\x1fb,", "", "ab", `a`}
	for i, id := range odd {
		msgs[i].ID = id
	}
	in, _ := ingest(t, st, "s.json", "sha", smallOptions, msgs)
	ids := make([]string, len(msgs))
	for i, m := range msgs {
		ids[i] = m.ID
	}
	got, err := st.MessagesByID(append(ids, "missing", `["`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(msgs) {
		t.Errorf("found %d messages, want %d", len(got), len(msgs))
	}
	for _, m := range msgs {
		if got[m.ID] != m {
			t.Errorf("MessagesByID[%q] = %+v, want %+v", m.ID, got[m.ID], m)
		}
		var want []string
		for _, c := range in.chunks {
			if slices.Contains(c.MessageIDs, m.ID) {
				want = append(want, c.ID)
			}
		}
		if chunks, err := st.ChunkIDsOfMessage(m.ID); err != nil || !slices.Equal(chunks, want) {
			t.Errorf("ChunkIDsOfMessage(%q) = %v, %v; want %v", m.ID, chunks, err, want)
		}
	}
}

// TestReingestKeepsUnchangedChunks: a changed session gap that splits
// nothing (messages one minute apart) is new options for the same chunks;
// re-ingesting updates each kept chunk in place (a plain insert would
// collide with it), so its row and its summary stay.
func TestReingestKeepsUnchangedChunks(t *testing.T) {
	st := openTemp(t)
	msgs := messages("s.json", 7, "message")
	first, _ := ingest(t, st, "s.json", "sha-1", smallOptions, msgs)
	var summaries []store.SummaryRow
	for _, c := range first.chunks {
		summaries = append(summaries, store.SummaryRow{ChunkID: c.ID, Summary: "about " + c.ID, Origin: "test"})
	}
	if err := st.PutSummaries(summaries); err != nil {
		t.Fatal(err)
	}
	gap := smallOptions
	gap.GapMinutes = smallOptions.GapMinutes / 2
	second, outcome := ingest(t, st, "s.json", "sha-1", gap, msgs)
	if outcome != store.Replaced {
		t.Fatalf("outcome = %v, want replaced", outcome)
	}
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := st.Summaries()
	if fmt.Sprint(chunks) != fmt.Sprint(first.chunks) || fmt.Sprint(second.chunks) != fmt.Sprint(first.chunks) {
		t.Errorf("chunks after re-ingest = %+v, want %+v", chunks, first.chunks)
	}
	for _, c := range first.chunks {
		if stored[c.ID] != "about "+c.ID {
			t.Errorf("summary of kept chunk %s = %q, want it kept", c.ID, stored[c.ID])
		}
	}
	if info, _, _ := st.Source("s.json"); info.Options != gap {
		t.Errorf("stored options = %+v, want %+v", info.Options, gap)
	}
}
