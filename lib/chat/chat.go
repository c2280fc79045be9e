// Package chat defines linemem's message model (spec §1) and the identifiers of
// messages and chunks (spec §6). Every other package speaks in these types:
// readers in lib/lineexport produce Messages, lib/chunking turns them into
// Chunks, lib/store persists both.
package chat

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// Defaults of the message model (spec §1).
const (
	// SystemSender stands in for a missing, null or empty sender.
	SystemSender = "SYSTEM"
	// TextType stands in for a missing, null or empty type.
	TextType = "text"
	// TimestampLayout is the layout of occurred_at, start_at and end_at:
	// local time as exported, no offset.
	TimestampLayout = "2006-01-02T15:04:05"
	// DateLayout is the layout of a message's date field.
	DateLayout = "2006-01-02"
)

// Message is one exported LINE record after defaults are applied (spec §1).
type Message struct {
	ID          string    // MessageID of the fields below
	Source      string    // the input file's base name, extension included
	SourceOrder int       // 0-based position in the file, in document order
	Date        string    // YYYY-MM-DD
	Time        string    // HH:MM:SS, or "" when unknown
	OccurredAt  time.Time // Date+Time, or Date 00:00:00 + SourceOrder seconds when Time is unknown; location UTC stands for "local as exported"
	Sender      string
	Type        string
	Text        string
}

// OccurredAtString formats OccurredAt as YYYY-MM-DDTHH:MM:SS.
func (m Message) OccurredAtString() string { return m.OccurredAt.Format(TimestampLayout) }

// Chunk is one conversation window: the retrieval unit (spec §4–§6).
type Chunk struct {
	ID         string   // ChunkID(Source, Index, MessageIDs)
	Source     string   // source of every member message
	Index      int      // 0-based over the source's emitted chunks
	StartAt    string   // occurred_at of the first message, YYYY-MM-DDTHH:MM:SS
	EndAt      string   // occurred_at of the last message
	MessageIDs []string // member message IDs in window order
	RawText    string   // spec §5 rendering
}

// fieldSeparator joins the fields that an ID hashes (U+001F, unit separator).
const fieldSeparator = "\x1f"

// HashID returns hex(sha1(utf8(join(fields, U+001F))))[:16], lowercase (spec §6).
func HashID(fields ...string) string {
	sum := sha1.Sum([]byte(strings.Join(fields, fieldSeparator)))
	return hex.EncodeToString(sum[:])[:16]
}

// MessageID is the spec §6 message identifier: the hash of source, decimal
// source_order, date, time (HH:MM:SS or empty), sender, type and text.
func MessageID(m Message) string {
	return HashID(m.Source, strconv.Itoa(m.SourceOrder), m.Date, m.Time, m.Sender, m.Type, m.Text)
}

// ChunkID is the spec §6 chunk identifier: the hash of source, decimal
// chunk_index and the member message IDs joined by ",".
func ChunkID(source string, index int, messageIDs []string) string {
	return HashID(source, strconv.Itoa(index), strings.Join(messageIDs, ","))
}

// SendClock returns the bytes [start, end) of the HH:MM of a raw_text line
// (spec §5: `{date} {HH:MM} {sender}: {body}`, rendered by
// lib/chunking.RenderLine): when line starts with a date YYYY-MM-DD, a
// space, a clock of two digits, ':' and two digits (or the unknown clock
// "--:--") and a space, start = 11 and end = 16; ok is false for any other
// line. The clock is the time the message was sent, not a word of it.
func SendClock(line string) (start, end int, ok bool) {
	const head = "2006-01-02 15:04 "
	if len(line) < len(head) || line[10] != ' ' || line[16] != ' ' {
		return 0, 0, false
	}
	if _, err := time.Parse(DateLayout, line[:10]); err != nil {
		return 0, 0, false
	}
	clock := line[11:16]
	if clock != "--:--" {
		if _, err := time.Parse("15:04", clock); err != nil {
			return 0, 0, false
		}
	}
	return 11, 16, true
}
