package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/linemem/linemem/lib/chat"
)

// Messages are stored in blocks (schema version 7). A source's messages, in
// source_order, go blockMessages at a time into one row of message_blocks,
// keyed by (source, first) where first and last are the source_orders of
// the block's first and last message. The row's messages column is a JSON
// array with one array per message:
//
//	[source_order, message_id, date, time, occurred_at, sender, type, text]
//
// so SQLite's JSON functions read it too: the view messages (migration 7)
// shows one row per message, as the table of that name did before.
//
// One row per message made a paper-scale ingest's writer bind and insert
// 358,896 rows of nine values; in blocks it inserts 5,613 rows of five, and
// the JSON is written on the goroutines that prepare the sources
// (PrepareSource), beside the writer. A lookup reads the
// blocks that hold the wanted source_orders: a block holding order o is the
// one with the greatest first ≤ o, found by a seek on the primary key.
const blockMessages = 64

// messageBlock is one row of message_blocks.
type messageBlock struct {
	first, last, count int
	messages           string
}

// encodeMessageBlocks lays out a source's messages as blocks. msgs need not
// be in source_order; two messages with the same source_order, or a field
// that is not valid UTF-8 (which JSON cannot hold exactly), are an error.
func encodeMessageBlocks(name string, msgs []chat.Message) ([]messageBlock, error) {
	byOrder := make([]int, len(msgs))
	sorted := true
	for i := range msgs {
		byOrder[i] = i
		if i > 0 && msgs[i].SourceOrder <= msgs[i-1].SourceOrder {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(byOrder, func(a, b int) int { return msgs[a].SourceOrder - msgs[b].SourceOrder })
	}
	blocks := make([]messageBlock, 0, (len(msgs)+blockMessages-1)/blockMessages)
	var buf []byte
	for start := 0; start < len(byOrder); start += blockMessages {
		part := byOrder[start:min(start+blockMessages, len(byOrder))]
		buf = append(buf[:0], '[')
		for j, i := range part {
			m := &msgs[i]
			if j > 0 {
				buf = append(buf, ',')
				if m.SourceOrder == msgs[part[j-1]].SourceOrder {
					return nil, fmt.Errorf("store: ingest %s: source_order %d appears twice", name, m.SourceOrder)
				}
			} else if start > 0 && m.SourceOrder == msgs[byOrder[start-1]].SourceOrder {
				return nil, fmt.Errorf("store: ingest %s: source_order %d appears twice", name, m.SourceOrder)
			}
			for _, f := range [...]struct{ name, value string }{{"Date", m.Date}, {"Time", m.Time}, {"Sender", m.Sender}, {"Type", m.Type}, {"Text", m.Text}} {
				if !utf8.ValidString(f.value) {
					return nil, fmt.Errorf("store: ingest %s: message %d: %s is not valid UTF-8", name, m.SourceOrder, f.name)
				}
			}
			buf = append(buf, '[')
			buf = strconv.AppendInt(buf, int64(m.SourceOrder), 10)
			buf = appendJSONString(append(buf, ','), m.ID)
			buf = appendJSONString(append(buf, ','), m.Date)
			buf = appendJSONString(append(buf, ','), m.Time)
			buf = append(buf, ',', '"')
			buf = append(m.OccurredAt.AppendFormat(buf, chat.TimestampLayout), '"')
			buf = appendJSONString(append(buf, ','), m.Sender)
			buf = appendJSONString(append(buf, ','), m.Type)
			buf = appendJSONString(append(buf, ','), m.Text)
			buf = append(buf, ']')
		}
		buf = append(buf, ']')
		blocks = append(blocks, messageBlock{
			first: msgs[part[0]].SourceOrder, last: msgs[part[len(part)-1]].SourceOrder,
			count: len(part), messages: string(buf),
		})
	}
	return blocks, nil
}

// appendJSONString appends s, valid UTF-8, as a JSON string: '"' and '\'
// escaped by a backslash, \n \r \t by name, other bytes below 0x20 as
// \u00XX, every other byte as it is.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	return append(append(dst, s[start:]...), '"')
}

// insertMessageBlocks writes a prepared source's message blocks. Each
// statement is a multi-row INSERT OR FAIL: no row can violate a constraint
// after PrepareSource, and the foreign key to sources is checked at commit,
// so the statement needs no statement journal.
func insertMessageBlocks(tx *sql.Tx, source string, blocks []messageBlock) error {
	ins, err := newBatchInsert(tx, `INSERT OR FAIL INTO message_blocks (source, first, last, count, messages) VALUES `, "", 5)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		if err := ins.add(source, b.first, b.last, b.count, b.messages); err != nil {
			ins.abandon()
			return err
		}
	}
	return ins.flush()
}

// decodeMessageBlock appends the messages of one stored block of source to
// dst, with encoding/json's reading of any string that holds an escape.
func decodeMessageBlock(dst []chat.Message, source string, first int, text string) ([]chat.Message, error) {
	d := newBlockDecoder(text)
	bad := func() ([]chat.Message, error) {
		return dst, fmt.Errorf("store: message block %d of %s: malformed at byte %d", first, source, d.i)
	}
	if !d.byte('[') {
		return bad()
	}
	if d.byte(']') {
		return dst, d.end(bad)
	}
	for {
		var m chat.Message
		var at string
		ok := d.byte('[')
		ok = ok && d.int(&m.SourceOrder)
		for _, f := range [...]*string{&m.ID, &m.Date, &m.Time, &at, &m.Sender, &m.Type, &m.Text} {
			ok = ok && d.byte(',') && d.str(f)
		}
		if !ok || !d.byte(']') {
			return bad()
		}
		m.Source = source
		t, err := time.Parse(chat.TimestampLayout, at)
		if err != nil {
			return dst, fmt.Errorf("store: message %s: occurred_at %q: %w", m.ID, at, err)
		}
		m.OccurredAt = t
		dst = append(dst, m)
		if d.byte(']') {
			return dst, d.end(bad)
		}
		if !d.byte(',') {
			return bad()
		}
	}
}

// blockDecoder reads the JSON of one message block with the line scanner's
// white space and punctuation; strings without escapes alias the block's
// text, which the decoder only reads.
type blockDecoder struct{ lineScanner }

func newBlockDecoder(text string) blockDecoder {
	return blockDecoder{lineScanner{b: unsafe.Slice(unsafe.StringData(text), len(text))}}
}

// end reports an error from bad unless only white space is left.
func (d *blockDecoder) end(bad func() ([]chat.Message, error)) error {
	d.ws()
	if d.i != len(d.b) {
		_, err := bad()
		return err
	}
	return nil
}

// int reads a JSON integer.
func (d *blockDecoder) int(dst *int) bool {
	d.ws()
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	n, err := strconv.Atoi(string(d.b[start:d.i]))
	*dst = n
	return err == nil
}

// str reads a JSON string; one with an escape goes through encoding/json.
func (d *blockDecoder) str(dst *string) bool {
	if !d.byte('"') {
		return false
	}
	start := d.i
	escaped := false
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			if !escaped {
				b := d.b[start : d.i-1]
				*dst = unsafe.String(unsafe.SliceData(b), len(b))
				return true
			}
			return json.Unmarshal(d.b[start-1:d.i], dst) == nil
		case c == '\\':
			escaped = true
			d.i++
		}
		d.i++
	}
	return false
}

// blockHolding returns the block of source that holds source_order order,
// if any: the one with the greatest first ≤ order, when its last ≥ order.
func blockHolding(q queryer, source string, order int) (first int, messages string, found bool, err error) {
	var last int
	err = q.QueryRow(`SELECT first, last, messages FROM message_blocks WHERE source = ? AND first <= ? ORDER BY first DESC LIMIT 1`,
		source, order).Scan(&first, &last, &messages)
	if err == sql.ErrNoRows || err == nil && last < order {
		return 0, "", false, nil
	}
	return first, messages, err == nil, err
}

// messagesAt returns the messages of source whose source_order is among
// orders (sorted ascending, repeats allowed), each block read once.
func messagesAt(q queryer, source string, orders []int) ([]chat.Message, error) {
	var out, block []chat.Message
	for k := 0; k < len(orders); {
		first, text, found, err := blockHolding(q, source, orders[k])
		if err != nil {
			return nil, err
		}
		if !found {
			k++
			continue
		}
		if block, err = decodeMessageBlock(block[:0], source, first, text); err != nil {
			return nil, err
		}
		if len(block) == 0 {
			return nil, fmt.Errorf("store: message block %d of %s holds no message", first, source)
		}
		last := block[len(block)-1].SourceOrder
		for _, m := range block {
			for k < len(orders) && orders[k] < m.SourceOrder {
				k++
			}
			if k < len(orders) && orders[k] == m.SourceOrder {
				out = append(out, m)
			}
		}
		for k < len(orders) && orders[k] <= last {
			k++
		}
	}
	return out, nil
}

// readMessageBlocks returns the messages of the blocks of source that query
// selects as (first, messages) rows, in row order.
func readMessageBlocks(q queryer, source, query string, args ...any) ([]chat.Message, error) {
	rows, err := q.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []chat.Message
	for rows.Next() {
		var first int
		var text string
		if err := rows.Scan(&first, &text); err != nil {
			return nil, err
		}
		if out, err = decodeMessageBlock(out, source, first, text); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}
