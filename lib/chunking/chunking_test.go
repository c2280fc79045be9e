package chunking_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
)

// conformanceMessages returns the pack's messages grouped by source, sources
// in first-appearance order.
func conformanceMessages(t *testing.T) (sources []string, bySource map[string][]chat.Message) {
	t.Helper()
	bySource = map[string][]chat.Message{}
	for _, e := range conformance.ExpectedMessages(t) {
		at, err := time.Parse(chat.TimestampLayout, e.OccurredAt)
		if err != nil {
			t.Fatal(err)
		}
		m := chat.Message{ID: e.MessageID, Source: e.Source, SourceOrder: e.SourceOrder, Date: e.Date,
			Time: e.Time, OccurredAt: at, Sender: e.Sender, Type: e.Type, Text: e.Text}
		if got := chat.MessageID(m); got != e.MessageID {
			t.Fatalf("%s #%d: MessageID = %s, pack says %s", e.Source, e.SourceOrder, got, e.MessageID)
		}
		if _, seen := bySource[e.Source]; !seen {
			sources = append(sources, e.Source)
		}
		bySource[e.Source] = append(bySource[e.Source], m)
	}
	return sources, bySource
}

func TestBuildConformance(t *testing.T) {
	sources, bySource := conformanceMessages(t)
	want := map[string][]conformance.Chunk{}
	for _, c := range conformance.ExpectedChunks(t) {
		want[c.Source] = append(want[c.Source], c)
	}
	for _, source := range sources {
		t.Run(source, func(t *testing.T) {
			chunks, err := chunking.Build(bySource[source], chunking.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			got := make([]conformance.Chunk, len(chunks))
			for i, c := range chunks {
				got[i] = conformance.Chunk{ChunkID: c.ID, Source: c.Source, ChunkIndex: c.Index, StartAt: c.StartAt, EndAt: c.EndAt,
					MessageIDs: c.MessageIDs, RawText: c.RawText}
			}
			if len(got) != len(want[source]) {
				t.Fatalf("got %d chunks, want %d", len(got), len(want[source]))
			}
			for i := range got {
				g, w := got[i], want[source][i]
				if g.ChunkID != w.ChunkID || g.Source != w.Source || g.ChunkIndex != w.ChunkIndex ||
					g.StartAt != w.StartAt || g.EndAt != w.EndAt || !slices.Equal(g.MessageIDs, w.MessageIDs) ||
					g.RawText != w.RawText {
					t.Errorf("chunk %d:\n got  %+v\n want %+v", i, g, w)
				}
			}
		})
	}
}

// The conformance pack includes render-limit trimming that leaves messages in
// no chunk; lossless mode must cover them all.
func TestBuildConformanceLossless(t *testing.T) {
	sources, bySource := conformanceMessages(t)
	paperUncovered := 0
	for _, source := range sources {
		msgs := bySource[source]
		paper, err := chunking.Build(msgs, chunking.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		paperUncovered += chunking.Uncovered(msgs, paper)
		opts := chunking.DefaultOptions()
		opts.Lossless = true
		lossless, err := chunking.Build(msgs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := chunking.Uncovered(msgs, lossless); n != 0 {
			t.Errorf("%s: lossless leaves %d messages uncovered", source, n)
		}
	}
	if paperUncovered == 0 {
		t.Error("paper rule covers every conformance message; the pack is meant to exercise trimming")
	}
}

// seq returns n messages of source "s.json", one minute apart from
// 2024-01-01 10:00, each with text "m".
func seq(n int) []chat.Message {
	msgs := make([]chat.Message, n)
	start := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	for i := range msgs {
		msgs[i] = message(i, start.Add(time.Duration(i)*time.Minute), "m")
	}
	return msgs
}

// message builds a complete message of "s.json" with sender "A" at a known time.
func message(order int, at time.Time, text string) chat.Message {
	m := chat.Message{Source: "s.json", SourceOrder: order, Date: at.Format(chat.DateLayout),
		Time: at.Format("15:04:05"), OccurredAt: at, Sender: "A", Type: chat.TextType, Text: text}
	m.ID = chat.MessageID(m)
	return m
}

// span is a chunk's members as [first, last+1) source orders of a seq.
type span struct{ from, to int }

func spans(t *testing.T, msgs []chat.Message, chunks []chat.Chunk) []span {
	t.Helper()
	order := map[string]int{}
	for _, m := range msgs {
		order[m.ID] = m.SourceOrder
	}
	out := make([]span, len(chunks))
	for i, c := range chunks {
		if c.Index != i {
			t.Errorf("chunk %d has Index %d", i, c.Index)
		}
		from := order[c.MessageIDs[0]]
		for j, id := range c.MessageIDs {
			if order[id] != from+j {
				t.Fatalf("chunk %d is not a contiguous run: %v", i, c.MessageIDs)
			}
		}
		out[i] = span{from, from + len(c.MessageIDs)}
	}
	return out
}

func TestBuildWindows(t *testing.T) {
	w, s := chunking.DefaultWindow, chunking.DefaultStride
	for _, tc := range []struct {
		name string
		n    int
		want []span
	}{
		{"empty", 0, []span{}},
		{"one message", 1, []span{{0, 1}}},
		{"n=40 one window", 40, []span{{0, 40}}},
		{"n=42 exactly one window", w, []span{{0, w}}},
		{"n=43 two windows", 43, []span{{0, w}, {s, 43}}},
		{"n=90 three windows", 90, []span{{0, w}, {s, s + w}, {2 * s, 90}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := seq(tc.n)
			chunks, err := chunking.Build(msgs, chunking.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got := spans(t, msgs, chunks); !slices.Equal(got, tc.want) {
				t.Errorf("windows = %v, want %v", got, tc.want)
			}
		})
	}
}

// A stride longer than the window skips the messages between windows and
// never starts a window past the session's end.
func TestBuildStrideBeyondWindow(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		want []span
	}{
		{"next start past the end", 16, []span{{0, 10}}},
		{"next start inside", 40, []span{{0, 10}, {36, 40}}},
		{"next start exactly at the end", 36, []span{{0, 10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := seq(tc.n)
			opts := chunking.DefaultOptions()
			opts.Window = 10
			chunks, err := chunking.Build(msgs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := spans(t, msgs, chunks); !slices.Equal(got, tc.want) {
				t.Errorf("windows = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBuildSessions(t *testing.T) {
	base := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		gap  time.Duration
		want []span
	}{
		{"gap of exactly 180 minutes keeps one session", 180 * time.Minute, []span{{0, 2}}},
		{"gap of 180 minutes 1 second splits", 180*time.Minute + time.Second, []span{{0, 1}, {1, 2}}},
		{"gap of 181 minutes splits", 181 * time.Minute, []span{{0, 1}, {1, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := []chat.Message{message(0, base, "a"), message(1, base.Add(tc.gap), "b")}
			chunks, err := chunking.Build(msgs, chunking.DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			if got := spans(t, msgs, chunks); !slices.Equal(got, tc.want) {
				t.Errorf("chunks = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNewSession(t *testing.T) {
	base := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		gap  time.Duration
		want bool
	}{
		{"no gap", 0, false},
		{"exactly the gap", 180 * time.Minute, false},
		{"one second more", 180*time.Minute + time.Second, true},
		{"backwards in time", -time.Hour * 24, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := chunking.NewSession(base, base.Add(tc.gap), chunking.DefaultGapMinutes); got != tc.want {
				t.Errorf("NewSession(+%v) = %v, want %v", tc.gap, got, tc.want)
			}
		})
	}
}

// SessionBounds and Build agree: the session ranges are the spans of the
// session-mode chunks, and the windows of each session lie inside its range.
func TestSessionBounds(t *testing.T) {
	base := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	gaps := []time.Duration{0, time.Minute, 181 * time.Minute, time.Minute, 180 * time.Minute, 24 * time.Hour, 0}
	var msgs []chat.Message
	at := base
	for i, g := range gaps {
		at = at.Add(g)
		msgs = append(msgs, message(i, at, "m"))
	}
	want := [][2]int{{0, 2}, {2, 5}, {5, 7}} // splits before the 181-minute and the 24-hour gap
	if got := chunking.SessionBounds(chunking.Sorted(msgs), chunking.DefaultGapMinutes); !slices.Equal(got, want) {
		t.Errorf("SessionBounds = %v, want %v", got, want)
	}
	if got := chunking.SessionBounds(nil, chunking.DefaultGapMinutes); got != nil {
		t.Errorf("SessionBounds(nil) = %v, want none", got)
	}
	chunks, err := chunking.Build(msgs, chunking.SessionOptions())
	if err != nil {
		t.Fatal(err)
	}
	wantSpans := []span{{0, 2}, {2, 5}, {5, 7}}
	if got := spans(t, msgs, chunks); !slices.Equal(got, wantSpans) {
		t.Errorf("session chunks = %v, want %v", got, wantSpans)
	}
}

// A session whose raw_text is far beyond the render limit stays one chunk
// with every message; the paper's windows of the same session lose some.
func TestBuildSessionModeKeepsLongSessions(t *testing.T) {
	const n, body = 12, 900 // 12 lines of ≥ 900 code points: > 10,800, twice the limit
	msgs := seq(n)
	for i := range msgs {
		msgs[i] = message(i, msgs[i].OccurredAt, strings.Repeat("y", body))
	}
	chunks, err := chunking.Build(msgs, chunking.SessionOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 1 || len(chunks[0].MessageIDs) != n {
		t.Fatalf("got %d chunks, first with %d messages; want 1 chunk of %d", len(chunks), len(chunks[0].MessageIDs), n)
	}
	if got, want := chunks[0].RawText, chunking.RenderRaw(msgs); got != want {
		t.Errorf("raw_text is not the whole session rendered")
	}
	paper, err := chunking.Build(msgs, chunking.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if chunking.Uncovered(msgs, paper) == 0 {
		t.Error("the paper's windows keep every message; the case is meant to exercise trimming")
	}
}

func TestTurnOptions(t *testing.T) {
	msgs := seq(5)
	chunks, err := chunking.Build(msgs, chunking.TurnOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}
	if got := spans(t, msgs, chunks); !slices.Equal(got, want) {
		t.Errorf("turn chunks = %v, want %v", got, want)
	}
}

// A message with unknown time sits at its date's 00:00:00 plus source_order
// seconds (spec §1), so it sorts before the day's timed messages and renders
// its clock as "--:--".
func TestBuildUnknownTime(t *testing.T) {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	timed := message(0, day.Add(10*time.Hour), "morning")
	unknown := chat.Message{Source: "s.json", SourceOrder: 1, Date: "2024-01-01", Time: "",
		OccurredAt: day.Add(1 * time.Second), Sender: "B", Type: chat.TextType, Text: "no clock"}
	unknown.ID = chat.MessageID(unknown)
	chunks, err := chunking.Build([]chat.Message{timed, unknown}, chunking.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 2 { // 00:00:01 → 10:00:00 is a gap of more than 180 minutes
		t.Fatalf("got %d chunks, want 2", len(chunks))
	}
	if want := "2024-01-01 --:-- B: no clock"; chunks[0].RawText != want {
		t.Errorf("first chunk raw_text = %q, want %q", chunks[0].RawText, want)
	}
	if chunks[0].StartAt != "2024-01-01T00:00:01" || chunks[1].StartAt != "2024-01-01T10:00:00" {
		t.Errorf("start_at = %s, %s", chunks[0].StartAt, chunks[1].StartAt)
	}
}

// Equal timestamps keep source order even when the input is reversed.
func TestBuildStableOrder(t *testing.T) {
	at := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	msgs := []chat.Message{message(2, at, "c"), message(1, at, "b"), message(0, at, "a")}
	chunks, err := chunking.Build(msgs, chunking.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{msgs[2].ID, msgs[1].ID, msgs[0].ID}
	if len(chunks) != 1 || !slices.Equal(chunks[0].MessageIDs, want) {
		t.Errorf("chunks = %+v, want one chunk with %v", chunks, want)
	}
	if msgs[0].SourceOrder != 2 {
		t.Error("Build reordered its input slice")
	}
}

// prefixWidth is the code-point width of "2024-01-01 10:00 A: " before a body.
const prefixWidth = len("2024-01-01 10:00 A: ")

// longSeq is seq(n) with message at index long carrying a body of bodyLen
// characters ("あ", several bytes each, so bytes and code points differ).
func longSeq(n, long, bodyLen int) []chat.Message {
	msgs := seq(n)
	msgs[long] = message(long, msgs[long].OccurredAt, strings.Repeat("あ", bodyLen))
	return msgs
}

func TestBuildRenderLimit(t *testing.T) {
	short := prefixWidth + 1 // width of a line with body "m"
	limit := chunking.DefaultMaxChars
	// Body length that makes the line at index 2 push a window holding
	// messages 0..2 just over the limit: short + short + long + 2 newlines = limit + 1.
	over := limit + 1 - 2*short - 2 - prefixWidth
	for _, tc := range []struct {
		name           string
		msgs           []chat.Message
		lossless       bool
		want           []span
		wantUncovered  int
		wantFirstWidth int // code points of chunk 0's raw_text
	}{
		{
			name: "window trimmed beyond the overlap leaves messages in no chunk",
			msgs: longSeq(43, 2, over), want: []span{{0, 2}, {36, 43}},
			wantUncovered: 36 - 2, wantFirstWidth: 2*short + 1,
		},
		{
			name: "lossless starts the next window at the first message left out",
			msgs: longSeq(43, 2, over), lossless: true, want: []span{{0, 2}, {2, 4}, {4, 43}},
			wantUncovered: 0, wantFirstWidth: 2*short + 1,
		},
		{
			name: "one character less fits exactly",
			msgs: longSeq(3, 2, over-1), want: []span{{0, 3}},
			wantUncovered: 0, wantFirstWidth: limit,
		},
		{
			name: "one character over trims the last message",
			msgs: longSeq(3, 2, over), want: []span{{0, 2}},
			wantUncovered: 1, wantFirstWidth: 2*short + 1,
		},
		{
			name: "single message over the limit stays whole",
			msgs: longSeq(1, 0, limit+1), want: []span{{0, 1}},
			wantUncovered: 0, wantFirstWidth: prefixWidth + limit + 1,
		},
		{
			name: "oversized first message keeps only itself",
			msgs: longSeq(3, 0, limit+1), want: []span{{0, 1}},
			wantUncovered: 2, wantFirstWidth: prefixWidth + limit + 1,
		},
		{
			name: "lossless after an oversized first message",
			msgs: longSeq(3, 0, limit+1), lossless: true, want: []span{{0, 1}, {1, 3}},
			wantUncovered: 0, wantFirstWidth: prefixWidth + limit + 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := chunking.DefaultOptions()
			opts.Lossless = tc.lossless
			chunks, err := chunking.Build(tc.msgs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := spans(t, tc.msgs, chunks); !slices.Equal(got, tc.want) {
				t.Errorf("windows = %v, want %v", got, tc.want)
			}
			if got := chunking.Uncovered(tc.msgs, chunks); got != tc.wantUncovered {
				t.Errorf("Uncovered = %d, want %d", got, tc.wantUncovered)
			}
			if got := utf8.RuneCountInString(chunks[0].RawText); got != tc.wantFirstWidth {
				t.Errorf("chunk 0 raw_text has %d code points, want %d", got, tc.wantFirstWidth)
			}
			for _, c := range chunks {
				if w := utf8.RuneCountInString(c.RawText); w > limit && len(c.MessageIDs) > 1 {
					t.Errorf("chunk %d: %d code points in %d messages", c.Index, w, len(c.MessageIDs))
				}
			}
		})
	}
}

// Lossless mode covers every message for any window/stride pair, even a
// stride longer than the window, and agrees with the paper's rule when no
// trimming happens.
func TestBuildLosslessCoversAll(t *testing.T) {
	msgs := seq(200)
	for i := 0; i < len(msgs); i += 7 { // every 7th message is long enough to force trimming
		msgs[i] = message(i, msgs[i].OccurredAt, strings.Repeat("x", 60))
	}
	for _, tc := range []struct{ window, stride, maxChars int }{
		{42, 36, 5000}, {42, 36, 200}, {10, 3, 100}, {5, 9, 5000}, {5, 9, 90}, {1, 1, 10},
	} {
		t.Run(fmt.Sprintf("window=%d stride=%d max=%d", tc.window, tc.stride, tc.maxChars), func(t *testing.T) {
			opts := chunking.Options{GapMinutes: 180, Window: tc.window, Stride: tc.stride, MaxChars: tc.maxChars, Lossless: true}
			lossless, err := chunking.Build(msgs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if n := chunking.Uncovered(msgs, lossless); n != 0 {
				t.Errorf("%d messages uncovered", n)
			}
			opts.Lossless = false
			paper, err := chunking.Build(msgs, opts)
			if err != nil {
				t.Fatal(err)
			}
			if chunking.Uncovered(msgs, paper) == 0 && !slices.EqualFunc(paper, lossless, func(a, b chat.Chunk) bool { return a.ID == b.ID }) {
				t.Error("paper rule covers everything, yet lossless chunks differ")
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	other := seq(1)[0]
	other.Source = "t.json"
	if _, err := chunking.Build(append(seq(2), other), chunking.DefaultOptions()); !errors.Is(err, chunking.ErrMixedSources) {
		t.Errorf("mixed sources: err = %v, want ErrMixedSources", err)
	}
	for _, tc := range []struct {
		name string
		opts chunking.Options
	}{
		{"zero value", chunking.Options{}},
		{"negative gap", chunking.Options{GapMinutes: -1, Window: 42, Stride: 36, MaxChars: 5000}},
		{"zero window", chunking.Options{GapMinutes: 180, Window: 0, Stride: 36, MaxChars: 5000}},
		{"zero stride", chunking.Options{GapMinutes: 180, Window: 42, Stride: 0, MaxChars: 5000}},
		{"zero max chars", chunking.Options{GapMinutes: 180, Window: 42, Stride: 36, MaxChars: 0}},
		{"sessions and lossless", chunking.Options{GapMinutes: 180, Window: 42, Stride: 36, MaxChars: 5000, Sessions: true, Lossless: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.opts.Validate(); err == nil {
				t.Error("Validate accepted invalid options")
			}
			if _, err := chunking.Build(seq(3), tc.opts); err == nil {
				t.Error("Build accepted invalid options")
			}
		})
	}
	if err := chunking.DefaultOptions().Validate(); err != nil {
		t.Errorf("defaults invalid: %v", err)
	}
}

func TestRenderLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    chat.Message
		want string
	}{
		{"text", chat.Message{Date: "2026-04-10", Time: "20:15:00", Sender: "A", Type: "text", Text: "What time tomorrow?"},
			"2026-04-10 20:15 A: What time tomorrow?"},
		{"unknown time", chat.Message{Date: "2026-04-10", Sender: "A", Type: "text", Text: "x"}, "2026-04-10 --:-- A: x"},
		{"empty text", chat.Message{Date: "2026-04-10", Time: "08:00:00", Sender: "A", Type: "text"}, "2026-04-10 08:00 A: "},
		{"empty media", chat.Message{Date: "2026-04-10", Time: "08:00:00", Sender: "A", Type: "photo"}, "2026-04-10 08:00 A: [photo]"},
		{"media with text keeps text", chat.Message{Date: "2026-04-10", Time: "08:00:00", Sender: "A", Type: "sticker", Text: "[スタンプ]"},
			"2026-04-10 08:00 A: [スタンプ]"},
		{"line breaks", chat.Message{Date: "2026-04-10", Time: "08:00:00", Sender: "A", Type: "text", Text: "a\r\nb\nc\rd\n\ne"},
			"2026-04-10 08:00 A: a b c d  e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := chunking.RenderLine(tc.m)
			if got != tc.want {
				t.Errorf("RenderLine = %q, want %q", got, tc.want)
			}
			if start, end, ok := chat.SendClock(got); !ok || got[start:end] != tc.want[11:16] {
				t.Errorf("SendClock(%q) = %d, %d, %v: want the clock %q", got, start, end, ok, tc.want[11:16])
			}
		})
	}
	if got := chunking.RenderRaw(nil); got != "" {
		t.Errorf("RenderRaw(nil) = %q, want empty", got)
	}
}

// IDs written out as literals, computed independently as
// hex(sha1(join(fields, U+001F)))[:16].
func TestChunkIDLiteral(t *testing.T) {
	first := chat.Message{Source: "friend.json", SourceOrder: 0, Date: "2024-01-14", Time: "09:30:00",
		OccurredAt: time.Date(2024, 1, 14, 9, 30, 0, 0, time.UTC), Sender: "A", Type: "text", Text: "What time tomorrow?"}
	first.ID = chat.MessageID(first)
	second := chat.Message{Source: "friend.json", SourceOrder: 1, Date: "2024-01-14", Time: "",
		OccurredAt: time.Date(2024, 1, 14, 0, 0, 1, 0, time.UTC), Sender: "B", Type: "sticker"}
	second.ID = chat.MessageID(second)
	if first.ID != "667bc7e23b65cc27" || second.ID != "5b74af547d9e24da" {
		t.Fatalf("message IDs = %s, %s", first.ID, second.ID)
	}
	chunks, err := chunking.Build([]chat.Message{first}, chunking.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if want := "21e312f8c4bec0d4"; chunks[0].ID != want { // sha1("friend.json␟0␟667bc7e23b65cc27")
		t.Errorf("chunk ID = %s, want %s", chunks[0].ID, want)
	}
}

func ExampleBuild() {
	start := time.Date(2024, 1, 14, 9, 0, 0, 0, time.UTC)
	var msgs []chat.Message
	for i := range 43 {
		at := start.Add(time.Duration(i) * time.Minute)
		m := chat.Message{Source: "friend.json", SourceOrder: i, Date: "2024-01-14", Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: "text", Text: fmt.Sprint("message ", i)}
		m.ID = chat.MessageID(m)
		msgs = append(msgs, m)
	}
	chunks, _ := chunking.Build(msgs, chunking.DefaultOptions())
	for _, c := range chunks {
		fmt.Println(c.Index, len(c.MessageIDs), c.StartAt, c.EndAt)
	}
	// Output:
	// 0 42 2024-01-14T09:00:00 2024-01-14T09:41:00
	// 1 7 2024-01-14T09:36:00 2024-01-14T09:42:00
}

func ExampleSessionOptions() {
	start := time.Date(2024, 1, 14, 9, 0, 0, 0, time.UTC)
	var msgs []chat.Message
	for i, offset := range []time.Duration{0, time.Minute, 5 * time.Hour, 5*time.Hour + time.Minute, 5*time.Hour + 2*time.Minute} {
		at := start.Add(offset)
		m := chat.Message{Source: "friend.json", SourceOrder: i, Date: "2024-01-14", Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: "text", Text: fmt.Sprint("message ", i)}
		m.ID = chat.MessageID(m)
		msgs = append(msgs, m)
	}
	chunks, _ := chunking.Build(msgs, chunking.SessionOptions())
	for _, c := range chunks {
		fmt.Println(c.Index, len(c.MessageIDs), c.StartAt, c.EndAt)
	}
	// Output:
	// 0 2 2024-01-14T09:00:00 2024-01-14T09:01:00
	// 1 3 2024-01-14T14:00:00 2024-01-14T14:02:00
}

func ExampleRenderLine() {
	m := chat.Message{Date: "2026-04-10", Time: "20:15:00", Sender: "A", Type: "text", Text: "What time\ntomorrow?"}
	fmt.Println(chunking.RenderLine(m))
	m.Time, m.Type, m.Text = "", "photo", ""
	fmt.Println(chunking.RenderLine(m))
	// Output:
	// 2026-04-10 20:15 A: What time tomorrow?
	// 2026-04-10 --:-- A: [photo]
}
