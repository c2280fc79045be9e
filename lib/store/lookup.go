package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/chat"
)

// MessagesByID returns the stored messages with the given IDs, keyed by ID;
// unknown IDs are absent from the map.
func (s *Store) MessagesByID(ids []string) (map[string]chat.Message, error) {
	return s.messagesByID(ids, nil)
}

// MessagesOfSourceByID is MessagesByID over one source's messages: the
// messages of source with the given IDs, keyed by ID; IDs unknown in source
// are absent. A chunk's members are all of its source, so this reads a
// chunk's messages without looking at every other source's ID index (at 110
// sources, a hundredth of the rows).
func (s *Store) MessagesOfSourceByID(source string, ids []string) (map[string]chat.Message, error) {
	return s.messagesByID(ids, &source)
}

// messagesByID is MessagesByID, restricted to one source when source is set.
func (s *Store) messagesByID(ids []string, source *string) (map[string]chat.Message, error) {
	refs, err := s.locateMessages(ids, source)
	if err != nil {
		return nil, err
	}
	orders := map[string][]int{} // source → candidate source_orders
	for _, rs := range refs {
		for _, r := range rs {
			orders[r.source] = append(orders[r.source], r.order)
		}
	}
	out := make(map[string]chat.Message, len(refs))
	for source, all := range orders {
		slices.Sort(all)
		found, err := messagesAt(s.db, source, all)
		if err != nil {
			return nil, err
		}
		for _, m := range found {
			if _, asked := refs[m.ID]; asked {
				out[m.ID] = m
			}
		}
	}
	return out, nil
}

// ChunkIDsOfMessages returns, for each of ids held by some chunk, the IDs of
// the chunks holding it, ordered by source and chunk_index; unknown IDs and
// messages in no chunk are absent from the map.
func (s *Store) ChunkIDsOfMessages(ids []string) (map[string][]string, error) {
	found, err := s.MessagesByID(ids)
	if err != nil {
		return nil, err
	}
	bySource := map[string]map[string]bool{}
	for id, m := range found {
		if bySource[m.Source] == nil {
			bySource[m.Source] = map[string]bool{}
		}
		bySource[m.Source][id] = true
	}
	sources := make([]string, 0, len(bySource))
	for src := range bySource {
		sources = append(sources, src)
	}
	slices.Sort(sources)
	out := make(map[string][]string, len(found))
	for _, src := range sources {
		wanted := bySource[src]
		rows, err := s.db.Query(`SELECT chunk_id, message_ids FROM chunks WHERE source = ? ORDER BY chunk_index`, src)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var chunkID, members string
			if err := rows.Scan(&chunkID, &members); err != nil {
				rows.Close()
				return nil, err
			}
			ids, err := decodeMembers(members)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: chunk %s: message_ids: %w", chunkID, err)
			}
			for _, id := range ids {
				if wanted[id] {
					out[id] = append(out[id], chunkID)
				}
			}
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
	all, err := readMessageBlocks(s.db, source, `SELECT first, messages FROM message_blocks
		WHERE source = ?1 AND first <= ?3 AND first >= coalesce(
			(SELECT first FROM message_blocks WHERE source = ?1 AND first <= ?2 ORDER BY first DESC LIMIT 1), ?2)
		ORDER BY first`, source, from, to)
	if err != nil {
		return nil, err
	}
	var out []chat.Message
	for _, m := range all {
		if m.SourceOrder >= from && m.SourceOrder <= to {
			out = append(out, m)
		}
	}
	return out, nil
}

// ChunksByID returns the stored chunks with the given IDs, each with its
// member message IDs in window order, keyed by ID; unknown IDs are absent
// from the map. It reads only those chunks, for callers that hold a ranking
// and need its first few.
func (s *Store) ChunksByID(ids []string) (map[string]chat.Chunk, error) {
	out := make(map[string]chat.Chunk, len(ids))
	const batch = 500
	for start := 0; start < len(ids); start += batch {
		part := ids[start:min(start+batch, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		in := `(?` + strings.Repeat(",?", len(part)-1) + `)`
		rows, err := s.db.Query(`SELECT chunk_id, source, chunk_index, start_at, end_at, raw_text, message_ids FROM chunks WHERE chunk_id IN `+in, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var c chat.Chunk
			var members string
			if err := rows.Scan(&c.ID, &c.Source, &c.Index, &c.StartAt, &c.EndAt, &c.RawText, &members); err != nil {
				rows.Close()
				return nil, err
			}
			if c.MessageIDs, err = decodeMembers(members); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: chunk %s: message_ids: %w", c.ID, err)
			}
			out[c.ID] = c
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ChunkSpan is where and when one chunk lies.
type ChunkSpan struct {
	ID, Source, StartAt, EndAt string
}

// ChunkSpans returns the source and time span of every chunk, ordered by
// source, then chunk_index, without their texts or members.
func (s *Store) ChunkSpans() ([]ChunkSpan, error) {
	rows, err := s.db.Query(`SELECT chunk_id, source, start_at, end_at FROM chunks ORDER BY source, chunk_index`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChunkSpan
	for rows.Next() {
		var c ChunkSpan
		if err := rows.Scan(&c.ID, &c.Source, &c.StartAt, &c.EndAt); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ChunkVectors returns the vectors of (rep, model) ordered by chunk ID: ids[i]
// owns data[i*dim : (i+1)*dim]. A set with no vectors gives no ids and dim 0.
// lib/retrieval keeps a load-ready matrix of them in DerivedDir. The chunk
// rows and the blocks are read in one read transaction, so a write that
// commits meanwhile is seen whole or not at all.
func (s *Store) ChunkVectors(rep, model string) (ids []string, dim int, data []float32, err error) {
	if err := ValidRep(rep); err != nil {
		return nil, 0, nil, err
	}
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, nil, err
	}
	defer tx.Rollback()
	return chunkVectors(tx, rep, model)
}
