package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
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
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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

func TestMigrateVersion3(t *testing.T) {
	opts := chunking.Options{GapMinutes: 180, Window: 4, Stride: 3, MaxChars: 100}
	start := time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC)
	msgs := make([]chat.Message, 8)
	for i := range msgs {
		at := start.Add(time.Duration(i) * time.Minute)
		m := chat.Message{Source: "s.json", SourceOrder: i, Date: at.Format(chat.DateLayout), Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: chat.TextType, Text: fmt.Sprint("m ", i)}
		if i == 1 {
			m.Text = "長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い長い"
		}
		m.ID = chat.MessageID(m)
		msgs[i] = m
	}
	chunks, err := chunking.Build(msgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	uncovered := chunking.Uncovered(msgs, chunks)
	if uncovered == 0 || len(chunks) < 2 {
		t.Fatalf("test data: %d chunks, %d uncovered; want overlapping chunks and a message in none", len(chunks), uncovered)
	}
	path := filepath.Join(t.TempDir(), "v3.db")
	writeVersion3(t, path, msgs, chunks, opts)

	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
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
