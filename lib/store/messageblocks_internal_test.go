package store

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

func TestDecodeMessageBlockMalformed(t *testing.T) {
	good := `[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","hi"]]`
	if got, err := decodeMessageBlock(nil, "s.json", 0, good); err != nil || len(got) != 1 || got[0].Text != "hi" || got[0].Source != "s.json" {
		t.Fatalf("decode(%s) = %+v, %v", good, got, err)
	}
	for _, text := range []string{
		``, `[`, `[[`, `[]x`, `{}`, `[[0]]`,
		`[[x,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","hi"]]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text"]]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","hi","extra"]]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","hi"]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","hi"],]`,
		`[[0,"id","2024-03-10","10:00:00","not a time","A","text","hi"]]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","bad \x"]]`,
		`[[0,"id","2024-03-10","10:00:00","2024-03-10T10:00:00","A","text","open]]`,
		strings.Replace(good, `]]`, `]] x`, 1),
	} {
		if got, err := decodeMessageBlock(nil, "s.json", 0, text); err == nil {
			t.Errorf("decode(%q) = %+v, want an error", text, got)
		}
	}
}

// FuzzMessageBlocks: any messages with valid UTF-8 fields read back exactly
// from their block, whatever bytes their texts hold.
func FuzzMessageBlocks(f *testing.F) {
	f.Add("A", "hi", "10:00:00", 0)
	f.Add(`"q"\`, "two\nlines\x00", "", 5)
	f.Add("送信者", "\u2028🙂<&>", "23:59:59", 1000)
	f.Fuzz(func(t *testing.T, sender, text, clock string, order int) {
		if !utf8.ValidString(sender) || !utf8.ValidString(text) || !utf8.ValidString(clock) {
			return
		}
		at := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC).Add(time.Duration(order%86400) * time.Second)
		msgs := []chat.Message{
			{Source: "s.json", SourceOrder: order, Date: "2024-03-10", Time: clock, OccurredAt: at, Sender: sender, Type: chat.TextType, Text: text},
			{Source: "s.json", SourceOrder: order + 1, Date: "2024-03-10", OccurredAt: at, Sender: text, Type: sender, Text: clock},
		}
		for i := range msgs {
			msgs[i].ID = chat.MessageID(msgs[i])
		}
		blocks, err := encodeMessageBlocks("s.json", msgs)
		if err != nil || len(blocks) != 1 {
			t.Fatalf("encode = %v, %v", blocks, err)
		}
		got, err := decodeMessageBlock(nil, "s.json", blocks[0].first, blocks[0].messages)
		if err != nil || !slices.Equal(got, msgs) {
			t.Fatalf("decode(%s) = %+v, %v; want %+v", blocks[0].messages, got, err, msgs)
		}
	})
}

// TestMembersRoundTrip: a chunk's message_ids column, written by
// encodeMembers with appendJSONString, reads back exactly, escaped IDs
// included, and is what encoding/json reads too.
func TestMembersRoundTrip(t *testing.T) {
	for _, ids := range [][]string{
		nil,
		{"9f2c01ab"},
		{"9f2c01ab", "01ab9f2c"},
		{`q"uote`, `back\slash`, "tab\tnl\n", "nul\x00", "日本語", "<&>", "\u2028"},
	} {
		col := encodeMembers(ids)
		got, err := decodeMembers(col)
		if err != nil || !slices.Equal(got, ids) {
			t.Errorf("decodeMembers(encodeMembers(%q)) = %q, %v", ids, got, err)
		}
		var viaJSON []string
		if err := json.Unmarshal([]byte(col), &viaJSON); err != nil || !slices.Equal(viaJSON, ids) {
			t.Errorf("encoding/json reads %s as %q, %v; want %q", col, viaJSON, err, ids)
		}
	}
}
