package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
)

// IngestOutcome says what IngestSource did with a source.
type IngestOutcome int

const (
	Unchanged IngestOutcome = iota // same content hash and chunking options: nothing written
	Added                          // the source was new
	Replaced                       // the source existed with other content or options
)

func (o IngestOutcome) String() string {
	switch o {
	case Unchanged:
		return "unchanged"
	case Added:
		return "added"
	case Replaced:
		return "replaced"
	}
	return fmt.Sprintf("IngestOutcome(%d)", int(o))
}

// SourceInfo describes one ingested source.
type SourceInfo struct {
	Name          string           // file base name, the messages' Source
	ContentSHA256 string           // lowercase hex SHA-256 of the file's bytes
	Size          int64            // file size in bytes
	Options       chunking.Options // options its chunks were built with
	IngestedAt    time.Time        // UTC, second precision
	Messages      int
	Chunks        int
	Title         string // the chat's title from its .txt header; "" when unknown
}

// IngestSource stores one source's messages and chunks in one transaction.
//
// When a source of that name is stored with the same contentSHA256 and the
// same opts, nothing is written and the outcome is Unchanged. Otherwise its
// old messages, chunks and memberships are replaced by the given ones and the
// outcome is Replaced (or Added for a new name). Summaries and vectors are
// keyed by chunk ID, which hashes the chunk's source, index and member
// messages (spec §6): those of chunk IDs that survive the replacement are
// kept, since they describe the very same chunk; those of vanished chunks are
// deleted with them.
//
// Every message and chunk must belong to source name, and every chunk member
// must be one of msgs; otherwise nothing is written and an error is returned.
func (s *Store) IngestSource(name string, contentSHA256 string, size int64, opts chunking.Options, msgs []chat.Message, chunks []chat.Chunk) (IngestOutcome, error) {
	src, err := PrepareSource(name, msgs, chunks)
	if err != nil {
		return 0, err
	}
	return s.IngestPrepared(src, contentSHA256, size, opts)
}

// PreparedSource is one source's messages and chunks, checked as
// IngestSource requires and laid out as they are stored (the message blocks,
// each chunk's message_ids array, the source's message_keys rows), so that
// IngestPrepared's transaction only writes. Preparing needs no database: a
// caller may prepare the next source while one is written.
type PreparedSource struct {
	name      string
	title     string
	chunks    []chat.Chunk
	uncovered int
	blocks    []messageBlock // encodeMessageBlocks(msgs)
	members   []string       // encodeMembers(chunks[i].MessageIDs)
	keys      []messageKey   // message_keys rows, in bucket order
}

// PrepareSource checks one source's messages and chunks for IngestPrepared
// (every message and chunk of source name, every chunk member one of msgs,
// message IDs distinct, source_orders distinct, every text field valid
// UTF-8) and lays them out for storing.
func PrepareSource(name string, msgs []chat.Message, chunks []chat.Chunk) (*PreparedSource, error) {
	uncovered, err := checkIngest(name, msgs, chunks)
	if err != nil {
		return nil, err
	}
	p := &PreparedSource{name: name, chunks: chunks, uncovered: uncovered, members: make([]string, len(chunks))}
	if p.blocks, err = encodeMessageBlocks(name, msgs); err != nil {
		return nil, err
	}
	for i, c := range chunks {
		p.members[i] = encodeMembers(c.MessageIDs)
	}
	p.keys = messageKeys(msgs)
	return p, nil
}

// SetTitle records the chat's title (lineexport.Result.Title) to store
// with the source.
func (p *PreparedSource) SetTitle(title string) { p.title = title }

// Uncovered returns how many of the source's messages are in no chunk.
func (p *PreparedSource) Uncovered() int { return p.uncovered }

// IngestPrepared stores a prepared source in one transaction, with
// IngestSource's outcomes.
func (s *Store) IngestPrepared(p *PreparedSource, contentSHA256 string, size int64, opts chunking.Options) (IngestOutcome, error) {
	name := p.name
	if err := opts.Validate(); err != nil {
		return 0, fmt.Errorf("store: ingest %s: %w", name, err)
	}
	optsJSON, err := json.Marshal(opts)
	if err != nil {
		return 0, err
	}
	outcome := Added
	err = s.inTx(func(tx *sql.Tx) error {
		old, found, err := sourceInfo(tx, name)
		if err != nil {
			return err
		}
		var stored map[string]struct{}
		if found {
			if old.ContentSHA256 == contentSHA256 && old.Options == opts {
				outcome = Unchanged
				return nil
			}
			outcome = Replaced
			if stored, err = clearSource(tx, name, p.chunks); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(`INSERT INTO sources (name, content_sha256, size, chunking_options, ingested_at, uncovered, title)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET content_sha256 = excluded.content_sha256, size = excluded.size,
				chunking_options = excluded.chunking_options, ingested_at = excluded.ingested_at, uncovered = excluded.uncovered,
				title = excluded.title`,
			name, contentSHA256, size, string(optsJSON), now(), p.uncovered, p.title); err != nil {
			return err
		}
		// A replaced source may drop chunks, and their summaries and vectors
		// with them.
		if err := bumpContent(tx, ContentChunks, ContentSummaries, ContentVectors); err != nil {
			return err
		}
		return insertSource(tx, p, stored)
	})
	if err != nil {
		return 0, fmt.Errorf("store: ingest %s: %w", name, err)
	}
	return outcome, nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// checkIngest validates one source's messages and chunks and returns how
// many messages are in no chunk. Message IDs must be valid UTF-8, so that a
// chunk's message_ids array holds them exactly.
func checkIngest(name string, msgs []chat.Message, chunks []chat.Chunk) (uncovered int, err error) {
	if name == "" {
		return 0, errors.New("store: ingest: empty source name")
	}
	covered := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		if m.Source != name {
			return 0, fmt.Errorf("store: ingest %s: message %s belongs to source %q", name, m.ID, m.Source)
		}
		if !utf8.ValidString(m.ID) {
			return 0, fmt.Errorf("store: ingest %s: message %d has ID %q, which is not valid UTF-8", name, m.SourceOrder, m.ID)
		}
		if _, dup := covered[m.ID]; dup {
			return 0, fmt.Errorf("store: ingest %s: message ID %s appears twice", name, m.ID)
		}
		covered[m.ID] = false
	}
	for _, c := range chunks {
		if c.Source != name {
			return 0, fmt.Errorf("store: ingest %s: chunk %s belongs to source %q", name, c.ID, c.Source)
		}
		for _, id := range c.MessageIDs {
			if _, ok := covered[id]; !ok {
				return 0, fmt.Errorf("store: ingest %s: chunk %s holds message %s, which is not among the source's messages", name, c.ID, id)
			}
			covered[id] = true
		}
	}
	for _, in := range covered {
		if !in {
			uncovered++
		}
	}
	return uncovered, nil
}

// clearSource deletes a stored source's messages and the chunks whose IDs
// are not among keep (with their summaries and vectors, by cascade, and
// the vector blocks no chunk uses any more). It returns the IDs of the
// chunks of keep that stay stored.
func clearSource(tx *sql.Tx, name string, keep []chat.Chunk) (stored map[string]struct{}, err error) {
	kept := make(map[string]struct{}, len(keep))
	for _, c := range keep {
		kept[c.ID] = struct{}{}
	}
	rows, err := tx.Query(`SELECT chunk_id FROM chunks WHERE source = ?`, name)
	if err != nil {
		return nil, err
	}
	var gone []string
	stored = map[string]struct{}{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		if _, ok := kept[id]; ok {
			stored[id] = struct{}{}
		} else {
			gone = append(gone, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	del, err := tx.Prepare(`DELETE FROM chunks WHERE chunk_id = ?`)
	if err != nil {
		return nil, err
	}
	defer del.Close()
	for _, id := range gone {
		if _, err := del.Exec(id); err != nil {
			return nil, err
		}
	}
	if len(gone) > 0 {
		if err := dropUnusedBlocks(tx); err != nil {
			return nil, err
		}
	}
	if _, err := tx.Exec(`DELETE FROM message_keys WHERE source = ?`, name); err != nil {
		return nil, err
	}
	_, err = tx.Exec(`DELETE FROM message_blocks WHERE source = ?`, name)
	return stored, err
}

// insertSource writes one source's messages and chunks.
//
// Message blocks go in source_order, so the table grows at its end, in
// multi-row INSERT OR FAIL statements that need no statement journal (which
// copies every page a statement touches, to undo it alone; see
// insertMessageBlocks). Chunks,
// whose foreign key is checked at once, go one row per statement, which
// needs none either: a new chunk by a plain INSERT, and a chunk of stored
// (kept from before: same ID, hence same source, index and members) by an
// UPDATE in place, so that its summaries and vectors stay attached. (An
// upsert, INSERT … ON CONFLICT DO UPDATE, would serve both but keeps a
// statement journal: at 64 KiB pages it copied 0.4 CPU s of pages in a
// paper-scale ingest.)
func insertSource(tx *sql.Tx, p *PreparedSource, stored map[string]struct{}) error {
	if err := insertMessageBlocks(tx, p.name, p.blocks); err != nil {
		return err
	}
	if err := insertMessageKeys(tx, p.name, p.keys); err != nil {
		return err
	}
	ins, err := tx.Prepare(`INSERT INTO chunks (source, chunk_index, start_at, end_at, raw_text, message_ids, chunk_id) VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	upd, err := tx.Prepare(`UPDATE chunks SET source = ?, chunk_index = ?, start_at = ?, end_at = ?, raw_text = ?, message_ids = ? WHERE chunk_id = ?`)
	if err != nil {
		return err
	}
	defer upd.Close()
	for i, c := range p.chunks {
		stmt := ins
		if _, ok := stored[c.ID]; ok {
			stmt = upd
		}
		if _, err := stmt.Exec(c.Source, c.Index, c.StartAt, c.EndAt, c.RawText, p.members[i], c.ID); err != nil {
			return err
		}
	}
	return nil
}

// Source returns the stored source called name; found is false when there is
// none.
func (s *Store) Source(name string) (info SourceInfo, found bool, err error) {
	return sourceInfo(s.db, name)
}

// queryer is what *sql.DB and *sql.Tx share for reads.
type queryer interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

const sourceColumns = `name, content_sha256, size, chunking_options, ingested_at, title,
	(SELECT coalesce(sum(count), 0) FROM message_blocks m WHERE m.source = s.name),
	(SELECT count(*) FROM chunks c WHERE c.source = s.name)`

func sourceInfo(q queryer, name string) (SourceInfo, bool, error) {
	info, err := scanSource(q.QueryRow(`SELECT `+sourceColumns+` FROM sources s WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return SourceInfo{}, false, nil
	}
	return info, err == nil, err
}

func scanSource(row interface{ Scan(...any) error }) (SourceInfo, error) {
	var info SourceInfo
	var opts, at string
	if err := row.Scan(&info.Name, &info.ContentSHA256, &info.Size, &opts, &at, &info.Title, &info.Messages, &info.Chunks); err != nil {
		return info, err
	}
	if err := json.Unmarshal([]byte(opts), &info.Options); err != nil {
		return info, fmt.Errorf("store: source %s: chunking options %q: %w", info.Name, opts, err)
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return info, fmt.Errorf("store: source %s: ingested_at %q: %w", info.Name, at, err)
	}
	info.IngestedAt = t
	return info, nil
}

// Sources returns every stored source ordered by name.
func (s *Store) Sources() ([]SourceInfo, error) {
	rows, err := s.db.Query(`SELECT ` + sourceColumns + ` FROM sources s ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SourceInfo
	for rows.Next() {
		info, err := scanSource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, rows.Err()
}

// Chunks returns every chunk ordered by source, then chunk_index, with its
// member message IDs in window order.
func (s *Store) Chunks() ([]chat.Chunk, error) {
	rows, err := s.db.Query(`SELECT chunk_id, source, chunk_index, start_at, end_at, raw_text, message_ids FROM chunks ORDER BY source, chunk_index`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []chat.Chunk
	for rows.Next() {
		var c chat.Chunk
		var members string
		if err := rows.Scan(&c.ID, &c.Source, &c.Index, &c.StartAt, &c.EndAt, &c.RawText, &members); err != nil {
			return nil, err
		}
		if c.MessageIDs, err = decodeMembers(members); err != nil {
			return nil, fmt.Errorf("store: chunk %s: message_ids: %w", c.ID, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ChunksWithoutMembers is Chunks without the member message IDs
// (MessageIDs is nil): all that retrieval needs, without reading the
// membership table, which has one row per chunk member.
func (s *Store) ChunksWithoutMembers() ([]chat.Chunk, error) {
	rows, err := s.db.Query(`SELECT chunk_id, source, chunk_index, start_at, end_at, raw_text FROM chunks ORDER BY source, chunk_index`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []chat.Chunk
	for rows.Next() {
		var c chat.Chunk
		if err := rows.Scan(&c.ID, &c.Source, &c.Index, &c.StartAt, &c.EndAt, &c.RawText); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Messages returns the messages of source ordered by source_order; an unknown
// source has none.
func (s *Store) Messages(source string) ([]chat.Message, error) {
	return readMessageBlocks(s.db, source, `SELECT first, messages FROM message_blocks WHERE source = ? ORDER BY first`, source)
}

// ChunkIDsOfMessage returns the IDs of the chunks holding messageID, ordered
// by source and chunk_index; none for a message in no chunk or an unknown ID.
func (s *Store) ChunkIDsOfMessage(messageID string) ([]string, error) {
	byMessage, err := s.ChunkIDsOfMessages([]string{messageID})
	return byMessage[messageID], err
}
