package lineexport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/linemem/linemem/lib/chat"
)

// ReadJSON reads a JSON-by-date export (spec §2): one top-level object whose
// keys are dates and whose values are arrays of message objects
//
//	{"2024-01-14": [{"time": "9:05", "sender": "A", "type": "text", "text": "…"}, …], …}
//
// source is the file's base name; it becomes Message.Source and names the
// file in errors and warnings.
//
// Rules, all from spec §1–§2:
//   - Keys are read in document order, streaming, and a repeated key is read
//     again where it stands (nothing merged). A key is YYYY-MM-DD or
//     YYYY/MM/DD (one separator throughout), normalised to dashes, and must be
//     a real calendar date.
//   - SourceOrder counts messages across the whole file in that order.
//   - "time" is H:MM, HH:MM or HH:MM:SS with hours 0–23 and minutes and
//     seconds 0–59; seconds default to 00. Missing, null or "" is unknown; any
//     other string is unknown and adds one Warning. Unknown time gives
//     OccurredAt = date 00:00:00 + SourceOrder seconds (it may pass midnight).
//   - "sender", "type": missing, null or "" → "SYSTEM", "text". "text":
//     missing or null → "". Other fields are ignored whatever they hold.
//   - One leading UTF-8 byte-order mark is skipped.
//
// Errors (*InputError, with line and byte offset): invalid UTF-8 anywhere,
// malformed JSON, an empty file, a top-level value that is not an object, a
// key that is not a date, a date value that is not an array, an array item
// that is not an object, a time/sender/type/text of a JSON type other than
// string or null, and anything after the top-level object.
func ReadJSON(source string, r io.Reader) (*Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return parseJSON(source, data)
}

// parseJSON is ReadJSON on the file's bytes.
func parseJSON(source string, data []byte) (*Result, error) {
	if err := checkUTF8(source, data); err != nil {
		return nil, err
	}
	base := int64(0)
	if bytes.HasPrefix(data, utf8BOM) {
		base = int64(len(utf8BOM))
	}
	if json.Valid(data[base:]) {
		jr := &jsonReader{source: source, data: data, base: base, lines: newLineIndex(data)}
		if res, ok := jr.readValid(); ok {
			return res, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data[base:]))
	dec.UseNumber() // other fields may hold numbers beyond float64 range
	jr := &jsonReader{source: source, data: data, base: base, dec: dec, lines: newLineIndex(data)}
	return jr.read()
}

// readValid reads a document that json.Valid accepted by walking its bytes
// in place, without the decoder's token-by-token validation. It gives up
// (ok false) at the first thing that is not a well-formed export, for the
// decoder path to report it exactly.
func (jr *jsonReader) readValid() (res *Result, ok bool) {
	// Every message is an object, so the count of '{' bounds the count of
	// messages from above (by one, for the top-level object, plus any '{'
	// within strings).
	jr.result.Messages = make([]chat.Message, 0, bytes.Count(jr.data, []byte{'{'}))
	sc := rawScanner{b: jr.data, i: int(jr.base)}
	sc.skipSpace()
	if sc.i >= len(sc.b) || sc.b[sc.i] != '{' {
		return nil, false
	}
	sc.i++
	for {
		sc.skipSpace()
		if sc.b[sc.i] == '}' {
			break
		}
		key, err := sc.str()
		if err != nil {
			return nil, false
		}
		date, day, ok := parseDateKey(key)
		if !ok {
			return nil, false
		}
		sc.skipSpace()
		sc.i++ // ':'
		sc.skipSpace()
		if sc.b[sc.i] != '[' {
			return nil, false
		}
		sc.i++
		for {
			sc.skipSpace()
			if sc.b[sc.i] == ']' {
				sc.i++
				break
			}
			if sc.b[sc.i] != '{' {
				return nil, false
			}
			start := sc.i
			if err := jr.scanMessage(sc.value(), int64(start), key, date, day); err != nil {
				return nil, false
			}
			sc.skipSpace()
			if sc.b[sc.i] == ',' {
				sc.i++
			}
		}
		sc.skipSpace()
		if sc.b[sc.i] == ',' {
			sc.i++
		}
	}
	if len(jr.result.Messages) == 0 {
		jr.result.Messages = nil // as the decoder path leaves an export without messages
	}
	return &jr.result, true
}

// jsonReader holds the state of one ReadJSON call.
type jsonReader struct {
	source   string
	data     []byte // whole file, BOM included, so offsets are file offsets
	base     int64  // bytes skipped before the decoder's input (the BOM)
	dec      *json.Decoder
	lines    *lineIndex
	start    int64 // file offset where the last token began
	result   Result
	interned map[string]string
}

// The fields of a message object that ReadJSON reads; all others are ignored.
const (
	fieldTime   = "time"
	fieldSender = "sender"
	fieldType   = "type"
	fieldText   = "text"
)

func (jr *jsonReader) read() (*Result, error) {
	if len(bytes.TrimSpace(jr.data[jr.base:])) == 0 {
		return nil, jr.errorAt(int64(len(jr.data)), `a JSON object {"YYYY-MM-DD": [messages…]}, got an empty file`)
	}
	tok, err := jr.token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, jr.errorAt(jr.start, `a top-level JSON object {"YYYY-MM-DD": [messages…]}, got `+describeToken(tok))
	}
	for jr.dec.More() {
		if err := jr.readDate(); err != nil {
			return nil, err
		}
	}
	if _, err := jr.token(); err != nil { // the closing '}'
		return nil, err
	}
	prev := jr.dec.InputOffset()
	if tok, err := jr.dec.Token(); err != io.EOF {
		jr.start = jr.tokenStart(prev)
		what := "more data"
		if err == nil {
			what = describeToken(tok)
		}
		return nil, jr.errorAt(jr.start, "end of input after the top-level object, got "+what)
	}
	return &jr.result, nil
}

// readDate reads one `"date": [messages…]` member of the top-level object.
func (jr *jsonReader) readDate() error {
	tok, err := jr.token()
	if err != nil {
		return err
	}
	key := tok.(string) // object keys are always strings
	date, day, ok := parseDateKey(key)
	if !ok {
		return jr.errorAt(jr.start, fmt.Sprintf("a date key YYYY-MM-DD or YYYY/MM/DD naming a real calendar date, got %q", key))
	}
	if tok, err = jr.token(); err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return jr.errorAt(jr.start, fmt.Sprintf("an array of message objects as the value of date key %q, got %s", key, describeToken(tok)))
	}
	for jr.dec.More() {
		if err := jr.readMessage(key, date, day); err != nil {
			return err
		}
	}
	_, err = jr.token() // the closing ']'
	return err
}

// readMessage reads one message object of the array under date key key. The
// object is taken whole from the decoder, which validates it, and its
// members are then scanned in place (much faster than token by token).
func (jr *jsonReader) readMessage(key, date string, day time.Time) error {
	prev := jr.dec.InputOffset()
	var raw json.RawMessage
	if err := jr.dec.Decode(&raw); err != nil {
		return jr.decodeError(err, jr.tokenStart(prev))
	}
	start := jr.tokenStart(prev) // file offset of raw[0]
	if raw[0] != '{' {
		return jr.errorAt(start, fmt.Sprintf("a message object in the array of date key %q, got %s", key, describeRaw(raw)))
	}
	return jr.scanMessage(raw, start, key, date, day)
}

// scanMessage reads the message object raw, valid JSON that begins at file
// offset start, under date key key.
func (jr *jsonReader) scanMessage(raw []byte, start int64, key, date string, day time.Time) error {
	m := chat.Message{Source: jr.source, SourceOrder: len(jr.result.Messages), Date: date}
	var (
		clock    time.Duration
		hasClock bool
	)
	sc := rawScanner{b: raw, i: 1}
	for {
		sc.skipSpace()
		if raw[sc.i] == '}' {
			break
		}
		field, err := sc.str()
		if err != nil {
			return jr.errorAt(start+int64(sc.i), "valid JSON: "+err.Error())
		}
		sc.skipSpace()
		sc.i++ // ':'
		sc.skipSpace()
		valueAt := start + int64(sc.i)
		value := sc.value()
		sc.skipSpace()
		if raw[sc.i] == ',' {
			sc.i++
		}
		var dst *string
		switch field {
		case fieldTime:
			dst = &m.Time
		case fieldSender:
			dst = &m.Sender
		case fieldType:
			dst = &m.Type
		case fieldText:
			dst = &m.Text
		default:
			continue
		}
		switch value[0] {
		case 'n':
			*dst = ""
		case '"':
			v, err := unquote(value)
			if err != nil {
				return jr.errorAt(valueAt, "valid JSON: "+err.Error())
			}
			*dst = v
		default:
			return jr.errorAt(valueAt, fmt.Sprintf("field %q to be a string or null, got %s", field, describeRaw(value)))
		}
		if field == fieldTime {
			hasClock = false
			if m.Time != "" {
				h, mi, s, ok := parseJSONTime(m.Time)
				if ok {
					m.Time, clock, hasClock = formatClock(h, mi, s), clockDuration(h, mi, s), true
				} else {
					jr.warn(valueAt, fmt.Sprintf("time %q is not H:MM, HH:MM or HH:MM:SS; kept as unknown", m.Time))
				}
			}
		}
	}
	m.Sender = jr.intern(m.Sender)
	m.Type = jr.intern(m.Type)
	finish(&m, day, clock, hasClock)
	jr.result.Messages = append(jr.result.Messages, m)
	return nil
}

// intern returns one shared copy of a short, often repeated string (senders
// and types), so a large export keeps one copy of each.
func (jr *jsonReader) intern(s string) string {
	if v, ok := jr.interned[s]; ok {
		return v
	}
	if jr.interned == nil {
		jr.interned = map[string]string{}
	}
	jr.interned[s] = s
	return s
}

// rawScanner walks a JSON value that the decoder has already validated.
type rawScanner struct {
	b []byte
	i int
}

func (sc *rawScanner) skipSpace() {
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case ' ', '\t', '\r', '\n':
			sc.i++
			continue
		}
		return
	}
}

// value returns the raw bytes of the value starting at sc.i and moves past it.
func (sc *rawScanner) value() []byte {
	from := sc.i
	depth := 0
	for sc.i < len(sc.b) {
		switch c := sc.b[sc.i]; c {
		case '"':
			sc.skipString()
			if depth == 0 {
				return sc.b[from:sc.i]
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // end of a scalar right before the closing brace
				return sc.b[from:sc.i]
			}
			depth--
			if depth == 0 {
				sc.i++
				return sc.b[from:sc.i]
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return sc.b[from:sc.i]
			}
		}
		sc.i++
	}
	return sc.b[from:sc.i]
}

// skipString moves past the string literal starting at sc.i.
func (sc *rawScanner) skipString() {
	sc.i++ // opening quote
	for sc.i < len(sc.b) {
		switch sc.b[sc.i] {
		case '\\':
			sc.i += 2
			continue
		case '"':
			sc.i++
			return
		}
		sc.i++
	}
}

// str reads the string literal starting at sc.i.
func (sc *rawScanner) str() (string, error) {
	from := sc.i
	sc.skipString()
	return unquote(sc.b[from:sc.i])
}

// unquote decodes a JSON string literal; literals without escapes (the
// common case) are copied directly.
func unquote(lit []byte) (string, error) {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1]), nil
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err
}

// describeRaw names a raw JSON value's type for error messages.
func describeRaw(v []byte) string {
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "the string " + string(v)
	case 't', 'f':
		return "the boolean " + string(v)
	case 'n':
		return "null"
	}
	return "the number " + string(v)
}

// token returns the next JSON token, records where it began in jr.start and
// turns decoder errors, the end of input included, into *InputError.
func (jr *jsonReader) token() (json.Token, error) {
	prev := jr.dec.InputOffset()
	tok, err := jr.dec.Token()
	jr.start = jr.tokenStart(prev)
	if err == nil {
		return tok, nil
	}
	return nil, jr.decodeError(err, jr.start)
}

// decodeError turns a decoder error into an *InputError; at is the file
// offset to blame when the error carries none.
func (jr *jsonReader) decodeError(err error, at int64) error {
	var syn *json.SyntaxError
	switch {
	case err == io.EOF:
		return jr.errorAt(int64(len(jr.data)), "valid JSON, got the end of the file before the top-level object closes")
	case errors.As(err, &syn):
		return jr.errorAt(jr.base+syn.Offset, "valid JSON: "+syn.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return jr.errorAt(int64(len(jr.data)), "valid JSON, got the end of the file inside a value")
	default:
		return jr.errorAt(at, "valid JSON: "+err.Error())
	}
}

// tokenStart returns the file offset of the first byte at or after decoder
// offset prev that is not whitespace or a ',' / ':' separator.
func (jr *jsonReader) tokenStart(prev int64) int64 {
	off := jr.base + prev
	for off < int64(len(jr.data)) {
		switch jr.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (jr *jsonReader) errorAt(off int64, expected string) error {
	return &InputError{File: jr.source, Line: jr.lines.lineOf(off), Offset: off, Expected: expected}
}

func (jr *jsonReader) warn(off int64, msg string) {
	jr.result.Warnings = append(jr.result.Warnings, Warning{File: jr.source, Line: jr.lines.lineOf(off), Message: msg})
}

// describeToken names a token's JSON type for error messages.
func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case json.Number, float64:
		return fmt.Sprintf("the number %v", v)
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "an array"
		}
		return fmt.Sprintf("%q", v.String())
	}
	return fmt.Sprintf("%v", tok)
}

// parseDateKey accepts YYYY-MM-DD or YYYY/MM/DD (the same separator twice)
// naming a real calendar date and returns it with dashes and as a time.
func parseDateKey(key string) (string, time.Time, bool) {
	if len(key) != 10 || (key[4] != '-' && key[4] != '/') || key[7] != key[4] {
		return "", time.Time{}, false
	}
	y, ok1 := digits(key[0:4])
	m, ok2 := digits(key[5:7])
	d, ok3 := digits(key[8:10])
	if !ok1 || !ok2 || !ok3 {
		return "", time.Time{}, false
	}
	day, ok := calendarDate(y, m, d)
	if !ok {
		return "", time.Time{}, false
	}
	return key[0:4] + "-" + key[5:7] + "-" + key[8:10], day, true
}

// parseJSONTime accepts exactly H:MM, HH:MM and HH:MM:SS with hours 0–23,
// minutes and seconds 0–59 (spec §2); seconds default to 0.
func parseJSONTime(v string) (h, m, s int, ok bool) {
	var hh, mm, ss string
	switch {
	case len(v) == 4 && v[1] == ':':
		hh, mm = v[0:1], v[2:4]
	case len(v) == 5 && v[2] == ':':
		hh, mm = v[0:2], v[3:5]
	case len(v) == 8 && v[2] == ':' && v[5] == ':':
		hh, mm, ss = v[0:2], v[3:5], v[6:8]
	default:
		return 0, 0, 0, false
	}
	h, ok1 := digits(hh)
	m, ok2 := digits(mm)
	s, ok3 := 0, true
	if ss != "" {
		s, ok3 = digits(ss)
	}
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 59 {
		return 0, 0, 0, false
	}
	return h, m, s, true
}

// digits parses a non-empty run of ASCII digits.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
