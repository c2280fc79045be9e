package store

import (
	"encoding/json"
	"strings"
)

// A chunk's members are stored in its row as message_ids, a JSON array of
// the member message IDs in window order, e.g. ["9f2c…","01ab…"]; SQL reads
// them with json_each(message_ids). IDs are valid UTF-8 (IngestSource checks
// it), so the array holds them exactly.

// encodeMembers returns the message_ids column of a chunk with members ids,
// each written by appendJSONString (spec §6 IDs are lowercase hex, written
// as they are).
func encodeMembers(ids []string) string {
	n := 2
	for _, id := range ids {
		n += len(id) + 3
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, id)
	}
	return string(append(b, ']'))
}

// needsEscape reports whether s holds a byte that JSON escapes (a quote, a
// backslash, a control character) or one outside ASCII.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return true
		}
	}
	return false
}

// decodeMembers parses a message_ids column; "[]" (and "") is no members.
// An array without escapes, as encodeMembers and SQLite's json_group_array
// write it, is split directly.
func decodeMembers(col string) ([]string, error) {
	if col == "" || col == "[]" {
		return nil, nil
	}
	if strings.HasPrefix(col, `["`) && strings.HasSuffix(col, `"]`) && !strings.ContainsAny(col, "\\ \t\r\n") {
		return strings.Split(col[2:len(col)-2], `","`), nil
	}
	var ids []string
	if err := json.Unmarshal([]byte(col), &ids); err != nil {
		return nil, err
	}
	return ids, nil
}
