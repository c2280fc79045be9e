package store

import (
	"fmt"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/chat"
)

// MessagesByID returns the stored messages with the given IDs, keyed by ID;
// unknown IDs are absent from the map.
func (s *Store) MessagesByID(ids []string) (map[string]chat.Message, error) {
	out := make(map[string]chat.Message, len(ids))
	const batch = 500
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := s.db.Query(`SELECT message_id, source, source_order, date, time, occurred_at, sender, type, text
			FROM messages WHERE message_id IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			m, err := scanMessage(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out[m.ID] = m
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// MessageRange returns the messages of source whose source_order lies in
// [from, to], ordered by source_order.
func (s *Store) MessageRange(source string, from, to int) ([]chat.Message, error) {
	rows, err := s.db.Query(`SELECT message_id, source, source_order, date, time, occurred_at, sender, type, text
		FROM messages WHERE source = ? AND source_order BETWEEN ? AND ? ORDER BY source_order`, source, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []chat.Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func scanMessage(row interface{ Scan(...any) error }) (chat.Message, error) {
	var m chat.Message
	var at string
	if err := row.Scan(&m.ID, &m.Source, &m.SourceOrder, &m.Date, &m.Time, &at, &m.Sender, &m.Type, &m.Text); err != nil {
		return m, err
	}
	var err error
	if m.OccurredAt, err = time.Parse(chat.TimestampLayout, at); err != nil {
		return m, fmt.Errorf("store: message %s: occurred_at %q: %w", m.ID, at, err)
	}
	return m, nil
}
