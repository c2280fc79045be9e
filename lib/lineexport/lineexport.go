// Package lineexport reads a person's LINE chat exports into linemem's message
// model (spec §1): the JSON-by-date export the paper starts from (spec §2,
// ReadJSON) and the `.txt` history that the LINE app's "send chat history"
// writes (spec §3, ReadText). ReadFile picks the reader by file extension.
//
// Every returned chat.Message is complete: defaults applied (sender "SYSTEM",
// type "text", text ""), source_order counted over the whole file in document
// order, OccurredAt filled by the unknown-time rule when needed, and ID set to
// chat.MessageID. Nothing is deduplicated or dropped.
//
// Bad input is an *InputError naming the file, the line and what was
// expected; recoverable oddities (an unparseable time, an ambiguous day/month
// order) are reported as Warnings next to the messages.
package lineexport

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/regularfile"

	"github.com/linemem/linemem/lib/chat"
)

// Warning is a recoverable oddity in an export, such as an unparseable time
// (the message is kept with an unknown time) or a file whose day lines could
// be read day-first or month-first.
type Warning struct {
	File    string // source name as passed to the reader
	Line    int    // 1-based line of the oddity
	Message string
}

// String formats the warning as "FILE:LINE: MESSAGE".
func (w Warning) String() string { return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message) }

// InputError reports bad input: the file, the 1-based line, the byte offset
// from the start of the file and what the reader expected there.
type InputError = inputerr.Error

// Result is what a reader returns: messages in document order (SourceOrder =
// index) and the warnings met on the way, in file order.
type Result struct {
	Messages []chat.Message
	Warnings []Warning
	// Title is the chat's title from a .txt export's header (ChatTitle);
	// "" for a JSON export.
	Title string
}

// ErrUnsupported is wrapped by ReadFile's error for a path whose extension
// names no known export format; callers walking folders can test for it with
// errors.Is and skip such files.
var ErrUnsupported = errors.New("unsupported export format")

// Supported reports whether ReadFile has a reader for path's extension
// (".json" or ".txt", in any letter case).
func Supported(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".txt":
		return true
	}
	return false
}

// ReadFile reads one export file, dispatching on its extension (any letter
// case): ".json" → ReadJSON, ".txt" → ReadText. Any other extension is an
// error wrapping ErrUnsupported. The source name is the path's base name,
// extension included (spec §1).
func ReadFile(path string) (*Result, error) {
	if !Supported(path) {
		return ReadBytes(path, nil)
	}
	data, err := regularfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadBytes(path, data)
}

// ReadBytes parses data, the content of the export at path, as ReadFile
// would read it: a caller that hashes the bytes parses the same bytes.
func ReadBytes(path string, data []byte) (*Result, error) {
	var parse func(string, []byte) (*Result, error)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		parse = parseJSON
	case ".txt":
		parse = parseText
	default:
		return nil, fmt.Errorf("%s: %w: expected a .json (by-date) or .txt (LINE history) file", path, ErrUnsupported)
	}
	res, err := parse(filepath.Base(path), data)
	if ie := (*InputError)(nil); errors.As(err, &ie) {
		ie.File = path // the file as the person named it; the source stays its base name
	}
	return res, err
}

// utf8BOM is the byte-order mark that may open an export; one is skipped.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// lineIndex turns byte offsets of one file into 1-based line numbers. Queries
// with non-decreasing offsets cost O(bytes advanced) in total.
type lineIndex struct {
	data []byte
	off  int64 // offset counted so far
	line int   // line holding byte off
}

func newLineIndex(data []byte) *lineIndex { return &lineIndex{data: data, line: 1} }

// lineOf returns the line holding byte off (offsets past the end map to the
// last line).
func (x *lineIndex) lineOf(off int64) int {
	off = max(0, min(off, int64(len(x.data))))
	if off < x.off {
		x.off, x.line = 0, 1
	}
	x.line += bytes.Count(x.data[x.off:off], []byte{'\n'})
	x.off = off
	return x.line
}

// checkUTF8 returns an *InputError at the first invalid UTF-8 sequence of
// data, or nil when data is valid.
func checkUTF8(source string, data []byte) error {
	off := inputerr.InvalidUTF8(data)
	if off < 0 {
		return nil
	}
	return &InputError{
		File:     source,
		Line:     1 + bytes.Count(data[:off], []byte{'\n'}),
		Offset:   int64(off),
		Expected: fmt.Sprintf("valid UTF-8, got byte 0x%02X", data[off]),
	}
}

// finish applies the spec §1 defaults to m, fills OccurredAt from day (the
// message's date at 00:00 UTC) and Time, and sets the ID. clock is the time
// of day when known (hasClock).
func finish(m *chat.Message, day time.Time, clock time.Duration, hasClock bool) {
	if m.Sender == "" {
		m.Sender = chat.SystemSender
	}
	if m.Type == "" {
		m.Type = chat.TextType
	}
	if hasClock {
		m.OccurredAt = day.Add(clock)
	} else {
		m.Time = ""
		m.OccurredAt = day.Add(time.Duration(m.SourceOrder) * time.Second)
	}
	m.ID = chat.MessageID(*m)
}

// formatClock renders a time of day as HH:MM:SS (each part in 0…99).
func formatClock(h, m, s int) string {
	return string([]byte{
		byte('0' + h/10), byte('0' + h%10), ':',
		byte('0' + m/10), byte('0' + m%10), ':',
		byte('0' + s/10), byte('0' + s%10),
	})
}

// clockDuration is the offset of h:m:s from midnight.
func clockDuration(h, m, s int) time.Duration {
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
}

// calendarDate returns y-m-d at 00:00 UTC when it is a real calendar date.
func calendarDate(y, m, d int) (time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	return t, t.Year() == y && int(t.Month()) == m && t.Day() == d
}
