package memory_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/memory"
)

func TestShown(t *testing.T) {
	window := func(n int, matched ...int) memory.Result {
		return memory.Result{Messages: make([]memory.Message, n), Matched: matched}
	}
	cases := []struct {
		name    string
		r       memory.Result
		context int
		want    []int
	}{
		// a window without a marked message shows none: its Why speaks for it
		{"no match shows nothing", window(6), 2, nil},
		{"no match, no context", window(6), 0, nil},
		{"one match with context", window(6, 3), 1, []int{2, 3, 4}},
		{"context cut at the window's ends", window(4, 0, 3), 2, []int{0, 1, 2, 3}},
		{"negative context counts as 0", window(5, 2), -1, []int{2}},
		{"gaps kept", window(9, 1, 7), 1, []int{0, 1, 2, 6, 7, 8}},
		// 3 lies between the shown 2 and 4: its line takes the place of "…"
		{"a one-message gap is shown", window(7, 1, 5), 1, []int{0, 1, 2, 3, 4, 5, 6}},
		{"reply and carrier shown with the match", memory.Result{Messages: make([]memory.Message, 12), Matched: []int{1}, Replies: []int{4}, Carriers: []int{10}}, 0, []int{1, 4, 10}},
		// context surrounds the matches only
		{"reply beyond the context", memory.Result{Messages: make([]memory.Message, 12), Matched: []int{1}, Replies: []int{6}}, 1, []int{0, 1, 2, 6}},
		{"a reply without a match shows nothing", memory.Result{Messages: make([]memory.Message, 4), Replies: []int{2}}, 1, nil},
		// message 4 comes after the window: shown, and context stops
		// before it
		{"the first message after the window", laterWindow(4, 3), 2, []int{1, 2, 3, 4}},
		{"context does not reach past the window", laterWindow(4, 3), 0, []int{3, 4}},
		{"far from the match", laterWindow(6, 0), 1, []int{0, 1, 6}},
		{"no match, nothing after the window either", laterWindow(4), 2, nil},
	}
	for _, c := range cases {
		if got := c.r.Shown(c.context); !slices.Equal(got, c.want) {
			t.Errorf("%s: Shown(%d) = %v, want %v", c.name, c.context, got, c.want)
		}
	}
}

// laterWindow is a result of a window of n messages with matched ones, and
// after it the chat's next message (Message.Later).
func laterWindow(n int, matched ...int) memory.Result {
	r := memory.Result{Messages: make([]memory.Message, n+1), Matched: matched}
	r.Messages[n].Later = true
	return r
}

func TestRoleAndInWindow(t *testing.T) {
	r := laterWindow(5, 1)
	r.Replies, r.Carriers = []int{2}, []int{4}
	want := []string{"context", "match", "reply", "context", "asked", "next"}
	for i, w := range want {
		if got := r.Role(i); got != w {
			t.Errorf("Role(%d) = %q, want %q", i, got, w)
		}
	}
	if got, n := r.InWindow(), len(r.Window()); got != 5 || n != 5 {
		t.Errorf("InWindow() = %d, len(Window()) = %d; want 5 of %d messages", got, n, len(r.Messages))
	}
	if w := (memory.Result{Messages: make([]memory.Message, 3), Matched: []int{1}}); w.InWindow() != 3 || len(w.Window()) != 3 {
		t.Errorf("a window with nothing after it: InWindow() = %d, want 3", w.InWindow())
	}
	if (memory.Result{}).InWindow() != 0 {
		t.Errorf("no messages: InWindow() = %d", (memory.Result{}).InWindow())
	}
}

func TestElapsed(t *testing.T) {
	cases := []struct {
		d      time.Duration
		en, ja string
	}{
		{0, "1 minute", "1分"},
		{90 * time.Second, "1 minute", "1分"},
		{59 * time.Minute, "59 minutes", "59分"},
		{time.Hour, "1 hour", "1時間"},
		{4*time.Hour + 20*time.Minute, "4 hours", "4時間"},
		{48*time.Hour - time.Minute, "47 hours", "47時間"},
		{48 * time.Hour, "2 days", "2日"},
		{11*24*time.Hour + 5*time.Hour, "11 days", "11日"},
	}
	for _, c := range cases {
		if en, ja := memory.Elapsed(c.d, false), memory.Elapsed(c.d, true); en != c.en || ja != c.ja {
			t.Errorf("Elapsed(%v) = %q, %q; want %q, %q", c.d, en, ja, c.en, c.ja)
		}
	}
}

// TestUnmarkedWindowsShowWhy: a vector search for words no message holds
// ranks windows without a marked message; each says why it was ranked and
// shows no message.
func TestUnmarkedWindowsShowWhy(t *testing.T) {
	m, err := memory.Open(historyStore(t), memory.Options{Retriever: "raw_text_vector"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "zqzqzq", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 {
		t.Fatal("no results")
	}
	for _, r := range resp.Results {
		if len(r.Matched) != 0 || r.Why == "" || len(r.Shown(memory.DefaultContext)) != 0 {
			t.Errorf("#%d: matched %v, why %q, shown %v; want no match, a reason and nothing shown", r.Rank, r.Matched, r.Why, r.Shown(memory.DefaultContext))
		}
		if r.InWindow() != len(r.Messages) {
			t.Errorf("#%d: the message after the window read without a match", r.Rank)
		}
	}
}
