package chat_test

import (
	"fmt"
	"testing"

	"github.com/linemem/linemem/lib/chat"
)

// The literals are hex(sha1(...))[:16] of the joined fields, computed
// independently (the conformance pack's first message and chunk).
func TestIDs(t *testing.T) {
	m := chat.Message{Source: "chat_sakura.json", SourceOrder: 0, Date: "2024-03-10", Time: "10:00:00", Sender: "自分", Type: "text", Text: "明日のバイト何時から？"}
	if got, want := chat.MessageID(m), "2b910fb7d44d3b14"; got != want {
		t.Errorf("MessageID = %s, want %s", got, want)
	}
	if got, want := chat.ChunkID("chat_sakura.json", 1, []string{"3f1127f0ddc6b65d"}), "0f01f826e1cf54c0"; got != want {
		t.Errorf("ChunkID = %s, want %s", got, want)
	}
	t.Run("member message IDs are joined by a comma", func(t *testing.T) {
		// hex(sha1("chat_sakura.json" US "1" US "2b910fb7d44d3b14,3f1127f0ddc6b65d"))[:16]
		if got, want := chat.ChunkID("chat_sakura.json", 1, []string{"2b910fb7d44d3b14", "3f1127f0ddc6b65d"}), "7e0f27ac6619e466"; got != want {
			t.Errorf("ChunkID of two messages = %s, want %s", got, want)
		}
	})
	t.Run("fields are separated, not concatenated", func(t *testing.T) {
		if chat.HashID("ab", "c") == chat.HashID("a", "bc") {
			t.Error("HashID(ab, c) == HashID(a, bc)")
		}
	})
	t.Run("empty", func(t *testing.T) {
		if got, want := chat.HashID(), "da39a3ee5e6b4b0d"; got != want { // sha1 of no bytes
			t.Errorf("HashID() = %s, want %s", got, want)
		}
	})
}

func ExampleHashID() {
	fmt.Println(chat.HashID("a", "b"))
	// Output: 687d61996b1c1278
}

// TestSendClock: the clock of a raw_text line head (spec §5), known or
// not, and no clock in a line without a whole head.
func TestSendClock(t *testing.T) {
	for _, tc := range []struct {
		line  string
		clock string // "" when there is none
	}{
		{"2026-04-10 20:15 A: What time tomorrow?", "20:15"},
		{"2026-04-10 --:-- A: x", "--:--"},
		{"2026-04-10 08:00 A: ", "08:00"},
		{"2026-04-10 08:00 ", "08:00"},
		{"2026-04-10 08:00", ""},
		{"2026-13-10 20:15 A: x", ""},
		{"2026-04-10 25:15 A: x", ""},
		{"2026-04-10 8:15 A: x", ""},
		{"2026/04/10 20:15 A: x", ""},
		{"8時半集合", ""},
		{"", ""},
	} {
		start, end, ok := chat.SendClock(tc.line)
		if ok != (tc.clock != "") || ok && tc.line[start:end] != tc.clock {
			t.Errorf("SendClock(%q) = %d, %d, %v; want the clock %q", tc.line, start, end, ok, tc.clock)
		}
	}
}
