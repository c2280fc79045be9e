package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
)

// writeVersion3 writes a database at schema version 3 the way linemem did
// before migrations 4 and 5: one messages row per message keyed by message_id, and
// one chunk_messages row per chunk member.
func writeVersion3(t *testing.T, path string, msgs []chat.Message, chunks []chat.Chunk, opts chunking.Options) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=synchronous(OFF)") // a test file: no fsync per row
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // BEGIN and COMMIT below on one connection
	for _, m := range migrations[:3] {
		if _, err := db.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`PRAGMA user_version = 3`)
	exec(`BEGIN`)
	defer exec(`COMMIT`)
	optsJSON, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO sources (name, content_sha256, size, chunking_options, ingested_at) VALUES (?, 'sha-1', 1, ?, '2024-01-01T00:00:00Z')`,
		msgs[0].Source, string(optsJSON))
	for _, m := range msgs {
		exec(`INSERT INTO messages (message_id, source, source_order, date, time, occurred_at, sender, type, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.Source, m.SourceOrder, m.Date, m.Time, m.OccurredAtString(), m.Sender, m.Type, m.Text)
	}
	for _, c := range chunks {
		exec(`INSERT INTO chunks (chunk_id, source, chunk_index, start_at, end_at, raw_text) VALUES (?, ?, ?, ?, ?, ?)`,
			c.ID, c.Source, c.Index, c.StartAt, c.EndAt, c.RawText)
		// Members inserted out of position order: the migration must order them.
		for pos := len(c.MessageIDs) - 1; pos >= 0; pos-- {
			exec(`INSERT INTO chunk_messages (chunk_id, position, message_id) VALUES (?, ?, ?)`, c.ID, pos, c.MessageIDs[pos])
		}
		exec(`INSERT INTO summaries (chunk_id, summary, origin, imported_at) VALUES (?, ?, 'test', '2024-01-01T00:00:00Z')`, c.ID, "summary of "+c.ID)
	}
}

// version3Store writes msgs (one source, one minute apart from 10:00 on
// 2024-03-10, texts from text) and their chunks at schema version 3 and opens
// the file, which migrates it.
func version3Store(t *testing.T, n int, opts chunking.Options, edit func(i int, m *chat.Message)) (*Store, []chat.Message, []chat.Chunk) {
	t.Helper()
	start := time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC)
	msgs := make([]chat.Message, n)
	for i := range msgs {
		at := start.Add(time.Duration(i) * time.Minute)
		m := chat.Message{Source: "s.json", SourceOrder: i, Date: at.Format(chat.DateLayout), Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: chat.TextType, Text: fmt.Sprint("m ", i)}
		edit(i, &m)
		m.ID = chat.MessageID(m)
		msgs[i] = m
	}
	chunks, err := chunking.Build(msgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "v3.db")
	writeVersion3(t, path, msgs, chunks, opts)
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, msgs, chunks
}

func TestMigrateVersion3(t *testing.T) {
	opts := chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 100}
	st, msgs, chunks := version3Store(t, 8, opts, func(i int, m *chat.Message) {
		if i == 1 {
			m.Text = "長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い"
		}
	})
	uncovered := chunking.Uncovered(msgs, chunks)
	if uncovered == 0 || len(chunks) < 2 {
		t.Fatalf("test data: %d chunks, %d uncovered; want overlapping chunks and a message in none", len(chunks), uncovered)
	}
	var version int
	if err := st.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != SchemaVersion() {
		t.Fatalf("user_version = %d (%v), want %d", version, err, SchemaVersion())
	}
	t.Run("messages", func(t *testing.T) {
		got, err := st.Messages("s.json")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, msgs) {
			t.Errorf("Messages = %+v, want %+v", got, msgs)
		}
		byID, err := st.MessagesByID([]string{msgs[3].ID, "unknown"})
		if err != nil || len(byID) != 1 || byID[msgs[3].ID] != msgs[3] {
			t.Errorf("MessagesByID = %v, %v", byID, err)
		}
	})
	t.Run("chunks and members", func(t *testing.T) {
		got, err := st.Chunks()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(chunks) {
			t.Fatalf("%d chunks, want %d", len(got), len(chunks))
		}
		for i := range chunks {
			if got[i].ID != chunks[i].ID || got[i].RawText != chunks[i].RawText || !slices.Equal(got[i].MessageIDs, chunks[i].MessageIDs) {
				t.Errorf("chunk %d = %+v, want %+v", i, got[i], chunks[i])
			}
		}
		for _, m := range msgs {
			var want []string
			for _, c := range chunks {
				if slices.Contains(c.MessageIDs, m.ID) {
					want = append(want, c.ID)
				}
			}
			if got, err := st.ChunkIDsOfMessage(m.ID); err != nil || !slices.Equal(got, want) {
				t.Errorf("ChunkIDsOfMessage(message %d) = %v, %v; want %v", m.SourceOrder, got, err, want)
			}
		}
	})
	t.Run("uncovered and stats", func(t *testing.T) {
		if n, err := st.UncoveredMessages("s.json"); n != uncovered || err != nil {
			t.Errorf("UncoveredMessages = %d, %v; want %d", n, err, uncovered)
		}
		stats, err := st.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if stats.Messages != len(msgs) || stats.Chunks != len(chunks) || stats.UncoveredMessages != uncovered || stats.Summaries != len(chunks) {
			t.Errorf("Stats = %+v", stats)
		}
	})
	t.Run("ingest after the migration", func(t *testing.T) {
		if outcome, err := st.IngestSource("s.json", "sha-1", 1, opts, msgs, chunks); outcome != Unchanged || err != nil {
			t.Errorf("same content: %v, %v; want unchanged", outcome, err)
		}
		edited := slices.Clone(msgs)
		edited[7].Text = "edited"
		edited[7].ID = chat.MessageID(edited[7])
		again, err := chunking.Build(edited, opts)
		if err != nil {
			t.Fatal(err)
		}
		if outcome, err := st.IngestSource("s.json", "sha-2", 1, opts, edited, again); outcome != Replaced || err != nil {
			t.Fatalf("edited content: %v, %v; want replaced", outcome, err)
		}
		summaries, err := st.Summaries()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range again {
			_, kept := summaries[c.ID]
			if want := slices.ContainsFunc(chunks, func(old chat.Chunk) bool { return old.ID == c.ID }); kept != want {
				t.Errorf("chunk %d: summary kept %v, want %v", c.Index, kept, want)
			}
		}
		if len(summaries) == len(chunks) {
			t.Error("summaries of vanished chunks survived the replacement")
		}
	})
}

// TestMigrateMessagesIntoBlocks: migration 7 writes the blocks with SQLite's
// JSON functions, and the store reads them back exactly: more than two
// blocks, texts that JSON escapes, and a message whose time is unknown.
func TestMigrateMessagesIntoBlocks(t *testing.T) {
	opts := chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 5000}
	texts := []string{`say "hi"`, `C:\path\`, "two\nlines", "tab\there", "bell\x01\x1f", "del\x7f", "line\u2028sep", "emoji 🙂", "<a&b>", ""}
	st, msgs, _ := version3Store(t, 2*blockMessages+3, opts, func(i int, m *chat.Message) {
		m.Sender, m.Text = "送信者", fmt.Sprint(texts[i%len(texts)], i)
		if i == blockMessages {
			m.Time, m.OccurredAt = "", time.Date(2024, 3, 10, 0, 0, i, 0, time.UTC)
		}
	})
	got, err := st.Messages("s.json")
	if err != nil || !slices.Equal(got, msgs) {
		t.Errorf("Messages after the migration = %v, %v; want %v", got, err, msgs)
	}
	var blocks, firsts, lasts, counts string
	if err := st.db.QueryRow(`SELECT count(*), group_concat(first), group_concat(last), group_concat(count) FROM (SELECT * FROM message_blocks ORDER BY first)`).
		Scan(&blocks, &firsts, &lasts, &counts); err != nil {
		t.Fatal(err)
	}
	b := blockMessages
	want := fmt.Sprintf("3 %d,%d,%d %d,%d,%d %d,%d,3", 0, b, 2*b, b-1, 2*b-1, 2*b+2, b, b)
	if g := strings.Join([]string{blocks, firsts, lasts, counts}, " "); g != want {
		t.Errorf("blocks (count firsts lasts counts) = %s, want %s", g, want)
	}
	if rng, err := st.MessageRange("s.json", b-1, b); err != nil || !slices.Equal(rng, msgs[b-1:b+1]) {
		t.Errorf("MessageRange across the first boundary = %v, %v", rng, err)
	}
}

// TestMigrationCompacts: the messages table a migration rewrites into
// blocks leaves its pages free, and Open compacts the file it migrated.
func TestMigrationCompacts(t *testing.T) {
	opts := chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 100}
	st, msgs, _ := version3Store(t, 3000, opts, func(i int, m *chat.Message) { m.Text = strings.Repeat("テキスト", 1+i%20) })
	var pages, free int64
	if err := st.DB().QueryRow(`SELECT (SELECT page_count FROM pragma_page_count), (SELECT freelist_count FROM pragma_freelist_count)`).Scan(&pages, &free); err != nil {
		t.Fatal(err)
	}
	if 10*free > pages {
		t.Errorf("%d of %d pages free after the migration, want at most a tenth", free, pages)
	}
	got, err := st.Messages("s.json")
	if err != nil || !slices.Equal(got, msgs) {
		t.Errorf("Messages after compacting = %d, %v; want the %d written", len(got), err, len(msgs))
	}
}

// TestNewFileNotCompacted: a new file runs every migration and is not
// compacted (its few free pages, if any, are reused by the first write):
// only a file written before is.
func TestNewFileNotCompacted(t *testing.T) {
	calls := 0
	defer func(c func(*Store)) { compact = c }(compact)
	compact = func(s *Store) { calls++; s.compactAfterMigration() }
	st, err := Open(filepath.Join(t.TempDir(), "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if calls != 0 {
		t.Errorf("a new file was considered for compaction %d time(s), want 0", calls)
	}
}
