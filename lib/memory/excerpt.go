package memory

import "strings"

// Shown returns the indices into r.Messages to show for r, ascending: every
// matched message with up to context messages before and after it (context
// < 0 counts as 0). A result in which no message matches shows none: its Why
// says why it was ranked, and no unmarked message stands in for an answer.
func (r Result) Shown(context int) []int {
	context = max(context, 0)
	if len(r.Matched) == 0 {
		return nil
	}
	keep := make([]bool, len(r.Messages))
	for _, i := range r.Matched {
		for j := max(0, i-context); j <= min(len(r.Messages)-1, i+context); j++ {
			keep[j] = true
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
