package memory_test

import (
	"context"
	"slices"
	"testing"

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
		// messages 4 and 5 come after the window: context stops at its
		// end, its first message after it is shown
		{"the first message after the window", laterWindow(4, 2, 3), 2, []int{1, 2, 3, 4}},
		{"context stops at the window's end", laterWindow(4, 2, 2), 2, []int{0, 1, 2, 3, 4}},
		{"a reply after the window", func() memory.Result { r := laterWindow(4, 3, 0); r.Replies = []int{6}; return r }(), 0, []int{0, 4, 5, 6}},
		{"a carrier after the window, none in it", func() memory.Result { r := laterWindow(3, 2, 0); r.Carriers = []int{4}; return r }(), 0, []int{0, 3, 4}},
	}
	for _, c := range cases {
		if got := c.r.Shown(c.context); !slices.Equal(got, c.want) {
			t.Errorf("%s: Shown(%d) = %v, want %v", c.name, c.context, got, c.want)
		}
	}
}

// laterWindow is a result of a window of n messages with matched ones, and
// after it the chat's next k messages (Message.Later).
func laterWindow(n, k int, matched ...int) memory.Result {
	r := memory.Result{Messages: make([]memory.Message, n+k), Matched: matched}
	for i := n; i < n+k; i++ {
		r.Messages[i].Later = true
	}
	return r
}

func TestRoleAndInWindow(t *testing.T) {
	r := laterWindow(4, 3, 1)
	r.Replies, r.Carriers = []int{2, 5}, []int{6}
	want := []string{"context", "match", "reply", "context", "next", "reply", "asked"}
	for i, w := range want {
		if got := r.Role(i); got != w {
			t.Errorf("Role(%d) = %q, want %q", i, got, w)
		}
	}
	if got := r.InWindow(); got != 4 {
		t.Errorf("InWindow() = %d, want 4 of %d messages", got, len(r.Messages))
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
	}
}
