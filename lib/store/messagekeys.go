package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
)

// Messages are found by message_id through message_keys, a hash index kept
// in rows of its own instead of an SQLite index on messages.message_id. A
// message ID is a SHA-1 prefix (spec §6), so an index on it receives every
// new message at a random place, which in a pure-Go SQLite costs several
// microseconds per message, a third of a paper-scale ingest. message_keys
// holds one row per (bucket, source): bucket is the first keyBucketChars
// characters of the ID (256 buckets for lowercase hex IDs), entries is a
// JSON array of [message_id, source_order] pairs sorted by message_id, as
// json_group_array(json_array(message_id, source_order)) writes it. Storing
// a source writes 256 rows instead of one index entry per message; finding
// an ID reads its bucket's row of each source.

// keyBucketChars is the number of leading characters of a message ID that
// name its bucket.
const keyBucketChars = 2

// keyBucket returns the bucket of a message ID: its first keyBucketChars
// characters (all of a shorter ID), the same as SQL's substr(message_id, 1, 2).
func keyBucket(id string) string {
	end := 0
	for range keyBucketChars {
		if end == len(id) {
			break
		}
		_, size := utf8.DecodeRuneInString(id[end:])
		end += size
	}
	return id[:end]
}

// messageKey is one row of message_keys for a source: a bucket and its
// entries, the JSON array of [message_id, source_order] pairs sorted by
// message_id.
type messageKey struct {
	bucket  string
	entries string
}

// messageKeys lays out the message_keys rows of one source's messages, in
// bucket order.
func messageKeys(msgs []chat.Message) []messageKey {
	type entry struct {
		id    string
		order int
	}
	// Grouped by bucket first, so that each sort is a short one.
	byBucket := map[string][]entry{}
	for _, m := range msgs {
		b := keyBucket(m.ID)
		byBucket[b] = append(byBucket[b], entry{m.ID, m.SourceOrder})
	}
	buckets := make([]string, 0, len(byBucket))
	for b := range byBucket {
		buckets = append(buckets, b)
	}
	slices.Sort(buckets)
	rows := make([]messageKey, len(buckets))
	var buf []byte
	for i, bucket := range buckets {
		keys := byBucket[bucket]
		slices.SortFunc(keys, func(a, b entry) int { return strings.Compare(a.id, b.id) })
		buf = append(buf[:0], '[')
		for j, k := range keys {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, '[')
			buf = appendJSONString(buf, k.id)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(k.order), 10)
			buf = append(buf, ']')
		}
		buf = append(buf, ']')
		rows[i] = messageKey{bucket, string(buf)}
	}
	return rows
}

// insertMessageKeys writes the message_keys rows of source name.
func insertMessageKeys(tx *sql.Tx, name string, rows []messageKey) error {
	if len(rows) == 0 {
		return nil
	}
	stmt, err := tx.Prepare(`INSERT INTO message_keys (bucket, source, entries) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rows {
		if _, err := stmt.Exec(r.bucket, name, r.entries); err != nil {
			return err
		}
	}
	return nil
}

// messageRef is where a message is stored.
type messageRef struct {
	source string
	order  int
}

// locateMessages returns, for each of ids found in message_keys, the
// messages that may be it: normally one, more only if the same ID was stored
// in several sources. A non-nil source restricts the search to that source.
func (s *Store) locateMessages(ids []string, source *string) (map[string][]messageRef, error) {
	byBucket := map[string][]string{}
	for _, id := range ids {
		b := keyBucket(id)
		if !slices.Contains(byBucket[b], id) {
			byBucket[b] = append(byBucket[b], id)
		}
	}
	buckets := make([]any, 0, len(byBucket))
	for b := range byBucket {
		buckets = append(buckets, b)
	}
	out := make(map[string][]messageRef, len(ids))
	const batch = 500
	for start := 0; start < len(buckets); start += batch {
		part := buckets[start:min(start+batch, len(buckets))]
		query := `SELECT bucket, source, entries FROM message_keys WHERE bucket IN (?` + strings.Repeat(",?", len(part)-1) + `)`
		if source != nil {
			query += ` AND source = ?`
			part = append(part[:len(part):len(part)], *source)
		}
		rows, err := s.db.Query(query, part...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var bucket, source, entries string
			if err := rows.Scan(&bucket, &source, &entries); err != nil {
				rows.Close()
				return nil, err
			}
			for _, id := range byBucket[bucket] {
				order, found, err := findKeyEntry(entries, id)
				if err != nil {
					rows.Close()
					return nil, fmt.Errorf("store: message_keys of %s, bucket %q: %w", source, bucket, err)
				}
				if found {
					out[id] = append(out[id], messageRef{source, order})
				}
			}
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// findKeyEntry returns the source_order paired with id in a message_keys
// entries array. The compact array that insertMessageKeys and SQLite write
// is walked in place, comparing each ID's JSON text with id; an id that
// needs escaping, or an array in another layout, is decoded instead.
func findKeyEntry(entries, id string) (order int, found bool, err error) {
	if !needsEscape(id) {
		if order, found, ok := scanKeyEntries(entries, id); ok {
			return order, found, nil
		}
	}
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal([]byte(entries), &pairs); err != nil {
		return 0, false, err
	}
	for _, p := range pairs {
		var got string
		if err := json.Unmarshal(p[0], &got); err != nil {
			return 0, false, err
		}
		if got == id {
			order, err := strconv.Atoi(string(p[1]))
			return order, err == nil, err
		}
	}
	return 0, false, nil
}

// scanKeyEntries walks a compact [["ID",N],…] array for id, which needs no
// escaping, so its JSON text is "id" exactly; ok is false when the array is
// not in that layout.
func scanKeyEntries(entries, id string) (order int, found, ok bool) {
	s := entries
	if len(s) < 2 || s[0] != '[' {
		return 0, false, false
	}
	s = s[1:]
	if s == "]" {
		return 0, false, true
	}
	for {
		if len(s) < 2 || s[0] != '[' || s[1] != '"' {
			return 0, false, false
		}
		s = s[2:]
		end, escaped := 0, false
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				escaped = true
				end++
			}
			end++
		}
		if end >= len(s) || len(s) < end+2 || s[end+1] != ',' {
			return 0, false, false
		}
		match := !escaped && s[:end] == id
		s = s[end+2:]
		close := strings.IndexByte(s, ']')
		if close < 0 {
			return 0, false, false
		}
		n, err := strconv.Atoi(s[:close])
		if err != nil {
			return 0, false, false
		}
		if match {
			return n, true, true
		}
		s = s[close+1:]
		switch {
		case strings.HasPrefix(s, ","):
			s = s[1:]
		case s == "]":
			return 0, false, true
		default:
			return 0, false, false
		}
	}
}
