// Package chunking turns one source's messages into conversation windows, the
// retrieval unit of linemem (spec §4), and renders them as raw_text (spec §5).
//
// Build follows the paper's rule exactly by default: stable sort, sessions
// split on gaps strictly longer than GapMinutes, sliding windows of Window
// messages every Stride messages, and trimming of each window's tail until its
// raw_text fits MaxChars. Under that rule a message trimmed from a window and
// not reached by the next window belongs to no chunk; Uncovered counts such
// messages, and Options.Lossless opts into a variant that leaves none behind.
//
// Two other retrieval units of the field are options too: the turn (one
// message per chunk, TurnOptions; LoCoMo's "dialog", LongMemEval's "round")
// and the session (one chunk per session, SessionOptions; LongMemEval's
// session setting). Sessions is the one home of the session rule.
package chunking

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

// Paper defaults (spec §4).
const (
	DefaultGapMinutes = 180  // a gap strictly longer than this starts a new session
	DefaultWindow     = 42   // messages per window before trimming
	DefaultStride     = 36   // window starts advance by this many messages (overlap = Window − Stride = 6)
	DefaultMaxChars   = 5000 // render limit on a window's raw_text, in code points
)

// Options are the chunking parameters. The zero value is invalid; start from
// DefaultOptions.
type Options struct {
	GapMinutes int  `json:"gap_minutes"` // session split on gap > GapMinutes minutes; ≥ 0
	Window     int  `json:"window"`      // messages per window; ≥ 1
	Stride     int  `json:"stride"`      // distance between window starts; ≥ 1
	MaxChars   int  `json:"max_chars"`   // render limit in code points; ≥ 1
	Lossless   bool `json:"lossless"`    // opt-in: every message lands in at least one chunk (see Build)
	// Sessions makes one chunk of each whole session (see Build); Window,
	// Stride, MaxChars and Lossless then do not apply.
	Sessions bool `json:"sessions,omitempty"`
}

// DefaultOptions returns the paper's parameters: gap 180 min, window 42,
// stride 36, render limit 5,000 characters, paper (lossy) trimming.
func DefaultOptions() Options {
	return Options{
		GapMinutes: DefaultGapMinutes,
		Window:     DefaultWindow,
		Stride:     DefaultStride,
		MaxChars:   DefaultMaxChars,
	}
}

// TurnOptions returns the turn unit: DefaultOptions with Window = Stride = 1,
// one message per chunk (a message longer than MaxChars stays whole, as
// in Build step 4).
func TurnOptions() Options {
	o := DefaultOptions()
	o.Window, o.Stride = 1, 1
	return o
}

// SessionOptions returns the session unit: DefaultOptions with Sessions set,
// one chunk per session holding all of its messages.
func SessionOptions() Options {
	o := DefaultOptions()
	o.Sessions = true
	return o
}

// Validate reports the first parameter out of range.
func (o Options) Validate() error {
	switch {
	case o.GapMinutes < 0:
		return fmt.Errorf("chunking: gap minutes %d: expected ≥ 0", o.GapMinutes)
	case o.Window < 1:
		return fmt.Errorf("chunking: window %d: expected ≥ 1", o.Window)
	case o.Stride < 1:
		return fmt.Errorf("chunking: stride %d: expected ≥ 1", o.Stride)
	case o.MaxChars < 1:
		return fmt.Errorf("chunking: max chars %d: expected ≥ 1", o.MaxChars)
	case o.Sessions && o.Lossless:
		return errors.New("chunking: sessions and lossless together: a session chunk loses no message, expected one of them")
	}
	return nil
}

// ErrMixedSources is returned by Build when its messages come from more than
// one source; chunks never cross sources, so callers chunk each one apart.
var ErrMixedSources = errors.New("chunking: messages from more than one source")

// Build chunks the messages of one source (spec §4):
//
//  1. Stable-sort by (OccurredAt, SourceOrder); msgs itself is not modified.
//  2. Start a new session wherever OccurredAt[i] − OccurredAt[i−1] is strictly
//     greater than GapMinutes minutes (exactly GapMinutes does not split).
//  3. In a session of n messages, windows start at s = 0, Stride, 2·Stride, …
//     and hold messages [s, min(s+Window, n)); the last window is the first
//     whose untrimmed end is n (n = 40 → one window; n = 43 → [0,42), [36,43)),
//     or earlier when the next start would be past the session's end (only
//     possible with Stride > Window, which leaves messages between windows).
//  4. While a window's raw_text is longer than MaxChars code points and it holds
//     more than one message, its last message is dropped. The next window's
//     start is unaffected, so with the paper's rule a trimmed message that the
//     next window does not reach belongs to no chunk. A single message longer
//     than MaxChars stays as a one-message chunk.
//  5. Chunk Index counts the emitted chunks of the source from 0, sessions in
//     time order; StartAt/EndAt are the first and last member's occurred_at;
//     ID is chat.ChunkID(source, index, member IDs).
//
// With Lossless set, step 3 changes in one way: when a window keeps k messages
// after trimming, the next window starts at s + min(Stride, k) — the first
// message it left out whenever trimming cut into the stride — and the session
// ends only after a window whose kept end is n. Every message then lands in at
// least one chunk; a window that trimming did not cut below Stride messages is
// the same as under the paper's rule, so chunk IDs (spec §6) differ only from
// the first window whose trimming left messages behind.
//
// With Sessions set, steps 3 and 4 are replaced: each session is one chunk
// holding every message of it, whatever the length of its raw_text. The
// render limit is not applied, so no turn of a long session is lost; a
// consumer with its own length limit (the embedding cap of lib/represent)
// cuts its own copy of the text, never the chunk.
//
// Empty msgs yields no chunks. Messages from more than one source are an error
// wrapping ErrMixedSources.
func Build(msgs []chat.Message, opts Options) ([]chat.Chunk, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		return nil, nil
	}
	source := msgs[0].Source
	for _, m := range msgs {
		if m.Source != source {
			return nil, fmt.Errorf("%w: %q and %q", ErrMixedSources, source, m.Source)
		}
	}
	sorted := Sorted(msgs)
	lines := make([]string, len(sorted))
	widths := make([]int, len(sorted)) // code points of each rendered line
	for i, m := range sorted {
		lines[i] = RenderLine(m)
		widths[i] = utf8.RuneCountInString(lines[i])
	}

	var chunks []chat.Chunk
	for _, b := range SessionBounds(sorted, opts.GapMinutes) {
		if opts.Sessions {
			chunks = append(chunks, newChunk(len(chunks), sorted[b[0]:b[1]], lines[b[0]:b[1]]))
			continue
		}
		chunks = appendSessionChunks(chunks, sorted[b[0]:b[1]], lines[b[0]:b[1]], widths[b[0]:b[1]], opts)
	}
	return chunks, nil
}

// Sorted returns a copy of msgs stable-sorted by (OccurredAt, SourceOrder),
// the order Build chunks in; msgs itself is not modified.
func Sorted(msgs []chat.Message) []chat.Message {
	sorted := slices.Clone(msgs)
	slices.SortStableFunc(sorted, func(a, b chat.Message) int {
		if c := a.OccurredAt.Compare(b.OccurredAt); c != 0 {
			return c
		}
		return cmp.Compare(a.SourceOrder, b.SourceOrder)
	})
	return sorted
}

// NewSession is the session rule (spec §4): a message at next starts a new
// session after a message at prev when next − prev is strictly greater than
// gapMinutes minutes (exactly gapMinutes does not split; a negative
// difference never splits).
func NewSession(prev, next time.Time, gapMinutes int) bool {
	return next.Sub(prev) > time.Duration(gapMinutes)*time.Minute
}

// SessionBounds cuts messages in time order (Sorted) into sessions by
// NewSession and returns each session's half-open index range [start, end),
// in order; they cover sorted exactly. No messages → no sessions.
func SessionBounds(sorted []chat.Message, gapMinutes int) [][2]int {
	var bounds [][2]int
	start := 0
	for i := 1; i <= len(sorted); i++ {
		if i < len(sorted) && !NewSession(sorted[i-1].OccurredAt, sorted[i].OccurredAt, gapMinutes) {
			continue
		}
		bounds = append(bounds, [2]int{start, i})
		start = i
	}
	return bounds
}

// appendSessionChunks emits the windows of one session (Build steps 3–5).
func appendSessionChunks(chunks []chat.Chunk, session []chat.Message, lines []string, widths []int, opts Options) []chat.Chunk {
	n := len(session)
	for start := 0; ; {
		end := min(start+opts.Window, n)
		kept := keptCount(widths[start:end], opts.MaxChars)
		chunks = append(chunks, newChunk(len(chunks), session[start:start+kept], lines[start:start+kept]))
		if opts.Lossless {
			if start+kept == n {
				return chunks
			}
			start += min(opts.Stride, kept)
			continue
		}
		start += opts.Stride
		if end == n || start >= n {
			return chunks
		}
	}
}

// keptCount is how many leading lines of a window survive the render limit:
// the rendered text of k lines has Σ widths + (k − 1) newlines code points, and
// lines are dropped from the end while that exceeds maxChars and k > 1.
func keptCount(widths []int, maxChars int) int {
	k := len(widths)
	total := k - 1
	for _, w := range widths {
		total += w
	}
	for k > 1 && total > maxChars {
		k--
		total -= widths[k] + 1
	}
	return k
}

func newChunk(index int, members []chat.Message, lines []string) chat.Chunk {
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.ID
	}
	source := members[0].Source
	return chat.Chunk{
		ID:         chat.ChunkID(source, index, ids),
		Source:     source,
		Index:      index,
		StartAt:    members[0].OccurredAtString(),
		EndAt:      members[len(members)-1].OccurredAtString(),
		MessageIDs: ids,
		RawText:    strings.Join(lines, "\n"),
	}
}

// unknownClock is the HH:MM shown for a message whose time is unknown.
const unknownClock = "--:--"

// RenderLine renders one message as `{date} {HH:MM} {sender}: {body}` (spec
// §5). HH:MM is the first five characters of Time, or "--:--" when Time is
// empty. body is Text with every "\r\n", "\n" and "\r" replaced by one space;
// when Text is empty and Type is not "text", body is "[{type}]".
func RenderLine(m chat.Message) string {
	clock := unknownClock
	if m.Time != "" {
		clock = m.Time[:min(5, len(m.Time))]
	}
	body := m.Text
	if body == "" && m.Type != chat.TextType {
		body = "[" + m.Type + "]"
	} else if strings.ContainsAny(body, "\r\n") {
		body = newlines.Replace(body)
	}
	return m.Date + " " + clock + " " + m.Sender + ": " + body
}

// newlines maps each line break form to one space; "\r\n" is listed first so
// it counts as one break.
var newlines = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// RenderRaw renders msgs in the given order as raw_text: one RenderLine per
// message joined by "\n", no trailing newline (spec §5). No messages → "".
func RenderRaw(msgs []chat.Message) string {
	lines := make([]string, len(msgs))
	for i, m := range msgs {
		lines[i] = RenderLine(m)
	}
	return strings.Join(lines, "\n")
}

// Uncovered counts the messages of msgs whose ID appears in no chunk's
// MessageIDs: those the paper's render-limit trimming left behind.
func Uncovered(msgs []chat.Message, chunks []chat.Chunk) int {
	covered := make(map[string]struct{}, len(msgs))
	for _, c := range chunks {
		for _, id := range c.MessageIDs {
			covered[id] = struct{}{}
		}
	}
	n := 0
	for _, m := range msgs {
		if _, ok := covered[m.ID]; !ok {
			n++
		}
	}
	return n
}
