package store_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/store"
)

// oddTexts are message texts that JSON must escape or keep exactly.
var oddTexts = []string{`say "hi"`, `C:\path\`, "two\nlines", "tab\there", "nul\x00byte", "bell\x01\x1f", "del\x7f",
	"line\u2028sep", "emoji 🙂", "日本語のテキスト", "<a&b>", "", `[1,"x"],]`, `\u0041`}

// blockMessagesFixture returns n messages of source with source_orders
// 0, 2, 4, … (a gap between every two), the odd texts in turn, sorted by
// source_order.
func blockMessagesFixture(source string, n int) []chat.Message {
	msgs := messages(source, n, "m")
	for i := range msgs {
		m := &msgs[i]
		m.SourceOrder = 2 * i
		m.Text = fmt.Sprint(oddTexts[i%len(oddTexts)], " ", i)
		if i%5 == 0 {
			m.Time = "" // time unknown: OccurredAt is the date + SourceOrder seconds
			m.OccurredAt = time.Date(2024, 3, 10, 0, 0, m.SourceOrder, 0, time.UTC)
		}
		m.ID = chat.MessageID(*m)
	}
	return msgs
}

// TestMessageBlocks stores a source of more than two blocks, given out of
// order and with gaps in source_order, and reads it back every way a
// message is read: whole, by range across block boundaries, by ID, and
// through the messages view.
func TestMessageBlocks(t *testing.T) {
	const b = store.BlockMessages
	st := openTemp(t)
	want := blockMessagesFixture("s.json", 2*b+5)
	given := slices.Clone(want)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(given), func(i, j int) { given[i], given[j] = given[j], given[i] })
	ingest(t, st, "s.json", "sha-1", smallOptions, given)

	t.Run("whole source", func(t *testing.T) {
		got, err := st.Messages("s.json")
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Messages = %v, %v; want the %d messages in source_order", got, err, len(want))
		}
	})
	t.Run("ranges", func(t *testing.T) {
		last := want[len(want)-1].SourceOrder
		for _, r := range []struct{ from, to int }{
			{-5, 2},
			{0, last},
			{2*b - 2, 2*b + 2},      // across the first block boundary
			{2 * b, 2 * b},          // the first message of the second block
			{2*b - 1, 2*b - 1},      // a gap
			{2*(2*b) - 3, last + 9}, // the last messages and beyond
			{last + 1, last + 9},
			{7, 3},
		} {
			var wantRange []chat.Message
			for _, m := range want {
				if m.SourceOrder >= r.from && m.SourceOrder <= r.to {
					wantRange = append(wantRange, m)
				}
			}
			got, err := st.MessageRange("s.json", r.from, r.to)
			if err != nil || !slices.Equal(got, wantRange) {
				t.Errorf("MessageRange(%d, %d) = %d messages, %v; want %d", r.from, r.to, len(got), err, len(wantRange))
			}
		}
		if got, err := st.MessageRange("other.json", 0, 10); err != nil || len(got) != 0 {
			t.Errorf("MessageRange of an unknown source = %v, %v", got, err)
		}
	})
	t.Run("by ID", func(t *testing.T) {
		ids := []string{"missing"}
		for _, m := range want {
			ids = append(ids, m.ID)
		}
		got, err := st.MessagesByID(ids)
		if err != nil || len(got) != len(want) {
			t.Fatalf("MessagesByID = %d messages, %v; want %d", len(got), err, len(want))
		}
		for _, m := range want {
			if got[m.ID] != m {
				t.Errorf("MessagesByID[%s] = %+v, want %+v", m.ID, got[m.ID], m)
			}
		}
	})
	t.Run("counts", func(t *testing.T) {
		stats, err := st.Stats()
		if err != nil || stats.Messages != len(want) {
			t.Errorf("Stats.Messages = %d, %v; want %d", stats.Messages, err, len(want))
		}
		info, _, err := st.Source("s.json")
		if err != nil || info.Messages != len(want) {
			t.Errorf("Source.Messages = %d, %v; want %d", info.Messages, err, len(want))
		}
		var blocks int
		if err := st.DB().QueryRow(`SELECT count(*) FROM message_blocks`).Scan(&blocks); err != nil || blocks != (len(want)+b-1)/b {
			t.Errorf("%d blocks (%v), want ⌈%d/%d⌉", blocks, err, len(want), b)
		}
	})
	t.Run("messages view", func(t *testing.T) {
		rows, err := st.DB().Query(`SELECT source, source_order, message_id, date, time, occurred_at, sender, type, text FROM messages ORDER BY source_order`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []chat.Message
		for rows.Next() {
			var m chat.Message
			var at string
			if err := rows.Scan(&m.Source, &m.SourceOrder, &m.ID, &m.Date, &m.Time, &at, &m.Sender, &m.Type, &m.Text); err != nil {
				t.Fatal(err)
			}
			if m.OccurredAt, err = time.Parse(chat.TimestampLayout, at); err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
		if !slices.Equal(got, want) {
			t.Errorf("the messages view differs from the stored messages:\n got %+v\nwant %+v", got, want)
		}
	})
	t.Run("a shorter source leaves no old block", func(t *testing.T) {
		shorter := want[:b+1]
		ingest(t, st, "s.json", "sha-2", smallOptions, shorter)
		got, err := st.Messages("s.json")
		if err != nil || !slices.Equal(got, shorter) {
			t.Errorf("Messages = %d, %v; want %d", len(got), err, len(shorter))
		}
		var blocks int
		if err := st.DB().QueryRow(`SELECT count(*) FROM message_blocks`).Scan(&blocks); err != nil || blocks != 2 {
			t.Errorf("%d blocks (%v), want 2", blocks, err)
		}
	})
}

// TestMessageBlocksRefuse: messages JSON cannot hold exactly, or that a
// block cannot order, are refused and nothing is stored.
func TestMessageBlocksRefuse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(msgs []chat.Message)
		error string
	}{
		{"a repeated source_order", func(msgs []chat.Message) { msgs[70].SourceOrder = msgs[3].SourceOrder }, "source_order 6 appears twice"},
		{"a repeated source_order across blocks", func(msgs []chat.Message) { msgs[64].SourceOrder = msgs[63].SourceOrder }, "appears twice"},
		{"a text that is not UTF-8", func(msgs []chat.Message) { msgs[5].Text = "bad \xff" }, "Text is not valid UTF-8"},
		{"a sender that is not UTF-8", func(msgs []chat.Message) { msgs[0].Sender = "\xc3" }, "Sender is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := openTemp(t)
			msgs := blockMessagesFixture("s.json", 2*store.BlockMessages+5)
			tc.edit(msgs)
			for i := range msgs {
				msgs[i].ID = chat.MessageID(msgs[i])
			}
			_, err := st.IngestSource("s.json", "sha", 1, smallOptions, msgs, nil)
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Fatalf("IngestSource = %v, want an error with %q", err, tc.error)
			}
			if stats, err := st.Stats(); err != nil || stats.Sources != 0 || stats.Messages != 0 {
				t.Errorf("after the error: %+v, %v; want nothing stored", stats, err)
			}
		})
	}
}

// TestMessagesOfSourceByID: restricted to one source, the lookup returns
// that source's messages among the IDs asked for, as MessagesByID does, and
// none of another source's.
func TestMessagesOfSourceByID(t *testing.T) {
	st := openTemp(t)
	a, b := blockMessagesFixture("a.json", 40), blockMessagesFixture("b.json", 30)
	ingest(t, st, "a.json", "sha-a", smallOptions, a)
	ingest(t, st, "b.json", "sha-b", smallOptions, b)
	ids := []string{"missing"}
	for _, m := range slices.Concat(a, b) {
		ids = append(ids, m.ID)
	}
	all, err := st.MessagesByID(ids)
	if err != nil || len(all) != len(a)+len(b) {
		t.Fatalf("MessagesByID = %d messages, %v; want %d", len(all), err, len(a)+len(b))
	}
	for source, want := range map[string][]chat.Message{"a.json": a, "b.json": b, "other.json": nil} {
		got, err := st.MessagesOfSourceByID(source, ids)
		if err != nil || len(got) != len(want) {
			t.Fatalf("MessagesOfSourceByID(%s) = %d messages, %v; want %d", source, len(got), err, len(want))
		}
		for _, m := range want {
			if got[m.ID] != m || all[m.ID] != m {
				t.Errorf("MessagesOfSourceByID(%s)[%s] = %+v, want %+v", source, m.ID, got[m.ID], m)
			}
		}
	}
}
