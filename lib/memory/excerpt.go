package memory

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Shown returns the indices into r.Messages to show for r, ascending: every
// matched message with up to context messages before and after it in the
// window (context < 0 counts as 0), the replies to them (Replies) and the
// messages near them that carry what the question asks for (Carriers), and
// the chat's first message after the window (Message.Later), since a thread
// often goes on after the gap that ended its window; a single message
// between two shown ones is shown too, since "…" would take its line. A
// result in which no message matches shows none: its Why says why it was
// ranked, and no unmarked message stands in for an answer. Every front end
// (search, --json, the web page, MCP) shows these messages.
func (r Result) Shown(context int) []int {
	context = max(context, 0)
	if len(r.Matched) == 0 {
		return nil
	}
	keep := make([]bool, len(r.Messages))
	n := r.InWindow()
	for _, i := range r.Matched {
		for j := max(0, i-context); j <= min(n-1, i+context); j++ {
			keep[j] = true
		}
	}
	if n < len(r.Messages) {
		keep[n] = true
	}
	for _, set := range [][]int{r.Replies, r.Carriers} {
		for _, i := range set {
			keep[i] = true
		}
	}
	for i := 1; i+1 < len(keep); i++ {
		if !keep[i] && keep[i-1] && keep[i+1] {
			keep[i] = true
		}
	}
	var out []int
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out
}

// Role says why message i of r is shown: "match" (it holds a question
// term), "reply" (it answers a matched message), "asked" (it carries what
// the question asks for), "next" (the chat's first message after the
// window) or "context".
func (r Result) Role(i int) string {
	switch {
	case r.Messages[i].Later:
		return "next"
	case slices.Contains(r.Matched, i):
		return "match"
	case slices.Contains(r.Replies, i):
		return "reply"
	case slices.Contains(r.Carriers, i):
		return "asked"
	}
	return "context"
}

// InWindow is the number of r's messages that belong to its window: all of
// Messages but the one after it (Message.Later), which comes last.
func (r Result) InWindow() int {
	n := len(r.Messages)
	if n > 0 && r.Messages[n-1].Later {
		n--
	}
	return n
}

// Window is r's messages without the one after the window.
func (r Result) Window() []Message { return r.Messages[:r.InWindow()] }

// Elapsed says how long d is as a person reads a gap in a chat, in whole
// units rounded down: minutes under an hour (at least 1), hours under two
// days, days from then on; "4 hours" / "4時間" (japanese).
func Elapsed(d time.Duration, japanese bool) string {
	n, en, ja := int(d/time.Minute), "minute", "分"
	switch {
	case d >= 48*time.Hour:
		n, en, ja = int(d/(24*time.Hour)), "day", "日"
	case d >= time.Hour:
		n, en, ja = int(d/time.Hour), "hour", "時間"
	}
	n = max(n, 1)
	if japanese {
		return strconv.Itoa(n) + ja
	}
	if n > 1 {
		en += "s"
	}
	return strconv.Itoa(n) + " " + en
}

// Highlight returns text with each span wrapped in open and close, e.g.
// "\x1b[1m" and "\x1b[0m" for a terminal or "**" and "**" for plain text.
// Spans must be ordered, non-overlapping byte ranges of text (as Matches
// returns them).
func Highlight(text string, spans []Span, open, close string) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s.Start])
		b.WriteString(open)
		b.WriteString(text[s.Start:s.End])
		b.WriteString(close)
		last = s.End
	}
	b.WriteString(text[last:])
	return b.String()
}
