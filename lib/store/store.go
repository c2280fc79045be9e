// Package store persists linemem's memory in one SQLite file (modernc.org/sqlite,
// pure Go): the ingested sources, their messages and chunks with their
// membership (the paper's line_chunk_messages, kept as each chunk's
// message_ids), imported or generated summaries (and, apart, summaries whose
// response was incomplete, with its status: schema version 8), and chunk and
// query vectors.
//
// The schema is versioned with PRAGMA user_version and upgraded by ordered
// migrations when a file is opened. Connections run in WAL mode with foreign
// keys on, synchronous=NORMAL and a busy timeout; every write that must be
// all-or-nothing (ingesting one source, one import) is one transaction, so a
// failure leaves what was stored before untouched. Other packages may keep
// their own tables in the same file through DB. Read-only connections read
// the file through a memory map (mmapBytes); while a transaction runs, the
// kernel is asked to start writing its pages to the disk (writeBehind), so
// that the commit's fsyncs find little left to do.
//
// Layout for writing at scale (schema versions 5 to 7): a source's messages
// are kept in blocks of 64 in source_order (messageblocks.go), so storing a
// source appends a few rows; they are found by message_id through
// message_keys (messagekeys.go) rather than a B-tree index that every hashed
// ID would enter at a random page; a chunk's members are the JSON array
// message_ids on its row; a source keeps its count of messages in no chunk;
// chunk vectors lie in blocks of 64 (vectorblocks.go).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// busyTimeoutMillis is how long a connection waits for another writer's lock
// before failing with SQLITE_BUSY.
const busyTimeoutMillis = 10_000

// cacheKiB is the page cache per connection; a paper-scale ingest touches a
// few hundred MiB of B-tree pages, and a larger cache keeps index inserts off
// the disk.
const cacheKiB = 64 << 10

// mmapBytes is how much of a database file a read-only connection reads
// through a memory map instead of copying each page with a read call
// (PRAGMA mmap_size; SQLite caps it at its build's maximum, 2 GiB on 64-bit
// Linux). The first sweep after a vectors import reads 274 MB of vectors
// from the file, and a map takes 77,000 read calls out of it. Pages read so
// are the kernel's file cache, shared between processes and counted in a
// process's resident size only while mapped. Connections that write keep
// read calls, so that a write never depends on a mapped page.
const mmapBytes = 1 << 31

// PageSize is the page size, in bytes, of a database file that Open creates;
// a file keeps the page size it was created with. Every page passes through
// the WAL and the checkpoint, and a vector block fills its overflow pages
// end to end, so larger pages mean fewer page writes for the same bytes: at
// paper scale (docs/performance.md, five alternating runs each) the
// workflow from ingest to eval took 12.04 s on average at 16 KiB, 11.65 s at
// 32 KiB and 11.34 s at 64 KiB (SQLite's largest), the vector imports
// 1.99, 1.79 and 1.67 s. The cost is a larger smallest file (one page per
// table and index, about 1 MiB) and more WAL bytes for a one-row write.
const PageSize = 64 << 10

// Store is an open linemem database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
}

// Open opens the database at path, creating the file if it does not exist, and
// brings its schema to the current version. The path ":memory:" opens a
// private in-memory database on a single connection. A file written by a newer linemem
// (user_version above the latest migration) is refused.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	if path != ":memory:" {
		if err := create(path); err != nil {
			return nil, Explain(path, fmt.Errorf("store: create %s: %w", path, err))
		}
	}
	q := url.Values{}
	for _, p := range []string{
		"foreign_keys(1)",
		fmt.Sprintf("busy_timeout(%d)", busyTimeoutMillis),
		"synchronous(NORMAL)",
		fmt.Sprintf("cache_size(-%d)", cacheKiB),
		"temp_store(MEMORY)", // statement journals of multi-row inserts stay off the disk
	} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", fileURI(path, q))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if path == ":memory:" {
		db.SetMaxOpenConns(1) // every connection would open its own empty database
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		if errors.Is(err, errNotLinemem) {
			return nil, err
		}
		return nil, Explain(path, fmt.Errorf("store: open %s: %w", path, err))
	}
	if err := s.walMode(); err != nil {
		db.Close()
		return nil, Explain(path, fmt.Errorf("store: open %s: %w", path, err))
	}
	return s, nil
}

// walMode puts the file in WAL mode, which lets readers work during a
// write. The mode is kept in the file: create sets it on a new file, so this
// is a check, except for a linemem database copied into another mode (a
// .dump restored by sqlite3). It runs after migrate, which refuses a file
// linemem did not write before anything changes it; the connections do not
// set the mode as they open, which would rewrite such a file's header.
func (s *Store) walMode() error {
	if s.path == ":memory:" {
		return nil
	}
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode = WAL`).Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("journal mode is %s, not wal", mode)
	}
	return nil
}

// create gives a database file that does not exist yet, or is empty, its page
// size and WAL mode; both are written into the file's header, which fixes the
// page size. An existing file is left alone, and a file that cannot be
// examined is left for Open to report. Two processes creating the same file
// at once both set the same values: switching to WAL needs the file to
// itself, and SQLite refuses the switch at once, without waiting, when
// another connection holds it, so a busy file is examined again (someone
// else has given it its header) until busyTimeoutMillis have passed.
func create(path string) error {
	deadline := time.Now().Add(busyTimeoutMillis * time.Millisecond)
	for {
		if fi, err := os.Stat(path); err != nil && !errors.Is(err, fs.ErrNotExist) || err == nil && fi.Size() > 0 {
			return nil
		}
		err := setHeader(path)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// FileMode is the permission a new database file is created with: readable
// and writable by its owner only, since it holds the whole chat history.
// SQLite creates the -wal and -shm files beside it with the same mode.
const FileMode = 0o600

// setHeader creates the database file at path with FileMode (an existing
// empty file keeps its mode) and sets its page size and WAL mode.
func setHeader(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, FileMode)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", fileURI(path, url.Values{"_pragma": {fmt.Sprintf("busy_timeout(%d)", busyTimeoutMillis)}}))
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(fmt.Sprintf(`PRAGMA page_size = %d; PRAGMA journal_mode = WAL`, PageSize))
	return err
}

// fileURI is the SQLite URI of the database at path with the parameters q.
func fileURI(path string, q url.Values) string {
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// escapePath keeps '?' and '#' in a file name from being read as URI syntax.
func escapePath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// DB returns the underlying handle, for packages that keep their own tables
// (such as a provider's response cache) in the same file.
func (s *Store) DB() *sql.DB { return s.db }

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// SchemaVersion returns the user_version that Open brings every database to.
func SchemaVersion() int { return len(migrations) }

// migrations[i] upgrades a database from user_version i to i+1. Append only:
// never edit a migration that has shipped.
var migrations = []string{
	// 1: sources, messages, chunks, membership, summaries, vectors.
	`
CREATE TABLE sources (
	name             TEXT PRIMARY KEY,
	content_sha256   TEXT NOT NULL,
	size             INTEGER NOT NULL,
	chunking_options TEXT NOT NULL,
	ingested_at      TEXT NOT NULL
);
CREATE TABLE messages (
	message_id   TEXT PRIMARY KEY,
	source       TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
	source_order INTEGER NOT NULL,
	date         TEXT NOT NULL,
	time         TEXT NOT NULL,
	occurred_at  TEXT NOT NULL,
	sender       TEXT NOT NULL,
	type         TEXT NOT NULL,
	text         TEXT NOT NULL,
	UNIQUE (source, source_order)
);
CREATE TABLE chunks (
	chunk_id    TEXT PRIMARY KEY,
	source      TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
	chunk_index INTEGER NOT NULL,
	start_at    TEXT NOT NULL,
	end_at      TEXT NOT NULL,
	raw_text    TEXT NOT NULL,
	UNIQUE (source, chunk_index)
);
CREATE TABLE chunk_messages (
	chunk_id   TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	position   INTEGER NOT NULL,
	message_id TEXT NOT NULL REFERENCES messages(message_id) ON DELETE CASCADE,
	PRIMARY KEY (chunk_id, position)
) WITHOUT ROWID;
CREATE INDEX chunk_messages_by_message ON chunk_messages(message_id);
CREATE TABLE summaries (
	chunk_id    TEXT PRIMARY KEY REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	summary     TEXT NOT NULL,
	origin      TEXT NOT NULL,
	imported_at TEXT NOT NULL
);
CREATE TABLE vectors (
	rep       TEXT NOT NULL,
	model     TEXT NOT NULL,
	chunk_id  TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	dim       INTEGER NOT NULL,
	input_cap INTEGER NOT NULL,
	vec       BLOB NOT NULL,
	PRIMARY KEY (rep, model, chunk_id)
) WITHOUT ROWID;
CREATE INDEX vectors_by_chunk ON vectors(chunk_id);
CREATE TABLE query_vectors (
	model         TEXT NOT NULL,
	question_text TEXT NOT NULL,
	dim           INTEGER NOT NULL,
	vec           BLOB NOT NULL,
	PRIMARY KEY (model, question_text)
) WITHOUT ROWID;
`,
	// 2: gold workbench (lib/workbench): pooled questions and candidate rows
	// with their provenance, the evidence items behind them, per-annotator
	// judgments and keep/drop decisions.
	`
CREATE TABLE gold_questions (
	qid       TEXT PRIMARY KEY,
	position  INTEGER NOT NULL,
	question  TEXT NOT NULL,
	type      TEXT NOT NULL,
	answer    TEXT NOT NULL,
	pooled_at TEXT NOT NULL
);
CREATE TABLE gold_evidence (
	qid         TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	item_index  INTEGER NOT NULL,
	source      TEXT NOT NULL,
	date        TEXT NOT NULL,
	time        TEXT NOT NULL,
	sender      TEXT NOT NULL,
	text_prefix TEXT NOT NULL,
	role        TEXT NOT NULL,
	match       TEXT NOT NULL,
	message_id  TEXT NOT NULL,
	match_score REAL NOT NULL,
	candidates  INTEGER NOT NULL,
	PRIMARY KEY (qid, item_index)
) WITHOUT ROWID;
CREATE TABLE gold_pool (
	qid      TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	chunk_id TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	origin   TEXT NOT NULL,
	detail   TEXT NOT NULL,
	rank     INTEGER NOT NULL,
	score    REAL NOT NULL,
	PRIMARY KEY (qid, chunk_id, origin, detail)
) WITHOUT ROWID;
CREATE TABLE gold_judgments (
	annotator TEXT NOT NULL,
	qid       TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	chunk_id  TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	rel       INTEGER CHECK (rel IN (0, 1, 2)),
	note      TEXT NOT NULL,
	at        TEXT NOT NULL,
	PRIMARY KEY (annotator, qid, chunk_id)
) WITHOUT ROWID;
CREATE TABLE gold_decisions (
	annotator TEXT NOT NULL,
	qid       TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	keep      INTEGER NOT NULL CHECK (keep IN (0, 1)),
	at        TEXT NOT NULL,
	PRIMARY KEY (annotator, qid)
) WITHOUT ROWID;
`,
	// 3: derived indexes (BM25 postings, vector matrices kept beside the
	// database): a random identity of this database and a version per kind
	// of content, bumped by every write to it.
	`
CREATE TABLE content_versions (
	kind    TEXT PRIMARY KEY,
	version INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO content_versions (kind, version) VALUES
	('database', abs(random())), ('chunks', 0), ('summaries', 0), ('vectors', 0);
`,
	// 4: vectors import: chunk vectors in a rowid table, the 6 KB vector of
	// a 1,536-d row in its own row and overflow pages, so that an import
	// appends rows in file order while only the small key entries of the
	// unique index and vectors_by_chunk are placed by key (in the clustered
	// WITHOUT ROWID table every row was moved by page splits). Existing
	// vectors are copied over unchanged.
	`
CREATE TABLE vectors_v4 (
	rep       TEXT NOT NULL,
	model     TEXT NOT NULL,
	chunk_id  TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	dim       INTEGER NOT NULL,
	input_cap INTEGER NOT NULL,
	vec       BLOB NOT NULL,
	UNIQUE (rep, model, chunk_id)
);
INSERT INTO vectors_v4 (rep, model, chunk_id, dim, input_cap, vec)
	SELECT rep, model, chunk_id, dim, input_cap, vec FROM vectors ORDER BY rep, model, chunk_id;
DROP TABLE vectors;
ALTER TABLE vectors_v4 RENAME TO vectors;
CREATE INDEX vectors_by_chunk ON vectors(chunk_id);
`,
	// 5: ingest at scale. Messages are kept in the order they are read,
	// keyed by (source, source_order), and found by their hashed message_id
	// through message_keys (messagekeys.go), one row per source and leading
	// two characters of the ID, instead of a B-tree index that every message
	// enters at a random place. A chunk's members move from chunk_messages
	// (one row per member, indexed twice) to the chunk's own row:
	// message_ids, a JSON array of its member IDs in window order. Each
	// source keeps the count of its messages in no chunk. The foreign keys of
	// messages and message_keys are checked at commit, so a multi-row INSERT
	// OR FAIL of messages needs no statement journal.
	`
ALTER TABLE sources ADD COLUMN uncovered INTEGER NOT NULL DEFAULT 0;
UPDATE sources SET uncovered = (SELECT count(*) FROM messages m
	WHERE m.source = sources.name AND m.message_id NOT IN (SELECT message_id FROM chunk_messages));
ALTER TABLE chunks ADD COLUMN message_ids TEXT NOT NULL DEFAULT '[]';
UPDATE chunks SET message_ids = (SELECT json_group_array(cm.message_id ORDER BY cm.position)
	FROM chunk_messages cm WHERE cm.chunk_id = chunks.chunk_id);
DROP TABLE chunk_messages;
CREATE TABLE messages_by_order (
	source       TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
	source_order INTEGER NOT NULL,
	message_id   TEXT NOT NULL,
	date         TEXT NOT NULL,
	time         TEXT NOT NULL,
	occurred_at  TEXT NOT NULL,
	sender       TEXT NOT NULL,
	type         TEXT NOT NULL,
	text         TEXT NOT NULL,
	PRIMARY KEY (source, source_order)
) WITHOUT ROWID;
INSERT INTO messages_by_order (source, source_order, message_id, date, time, occurred_at, sender, type, text)
	SELECT source, source_order, message_id, date, time, occurred_at, sender, type, text
	FROM messages ORDER BY source, source_order;
DROP TABLE messages;
ALTER TABLE messages_by_order RENAME TO messages;
CREATE TABLE message_keys (
	bucket  TEXT NOT NULL,
	source  TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
	entries TEXT NOT NULL,
	PRIMARY KEY (bucket, source)
) WITHOUT ROWID;
INSERT INTO message_keys (bucket, source, entries)
	SELECT substr(message_id, 1, 2), source, json_group_array(json_array(message_id, source_order) ORDER BY message_id)
	FROM messages GROUP BY substr(message_id, 1, 2), source;
`,
	// 6: chunk vectors in blocks (vectorblocks.go): the vectors of a write
	// lie end to end in vector_blocks, and each chunk's row in vectors names
	// its block and slot. An existing vector becomes a block of one.
	`
CREATE TABLE vector_blocks (
	block INTEGER PRIMARY KEY,
	rep   TEXT NOT NULL,
	model TEXT NOT NULL,
	vecs  BLOB NOT NULL
);
CREATE INDEX vector_blocks_by_set ON vector_blocks(rep, model);
CREATE TABLE vectors_v6 (
	chunk_id  TEXT NOT NULL REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	rep       TEXT NOT NULL,
	model     TEXT NOT NULL,
	dim       INTEGER NOT NULL,
	input_cap INTEGER NOT NULL,
	block     INTEGER NOT NULL,
	slot      INTEGER NOT NULL,
	PRIMARY KEY (chunk_id, rep, model)
) WITHOUT ROWID;
INSERT INTO vector_blocks (block, rep, model, vecs) SELECT rowid, rep, model, vec FROM vectors;
INSERT INTO vectors_v6 (chunk_id, rep, model, dim, input_cap, block, slot)
	SELECT chunk_id, rep, model, dim, input_cap, rowid, 0 FROM vectors;
DROP TABLE vectors;
ALTER TABLE vectors_v6 RENAME TO vectors;
`,
	// 7: messages in blocks (messageblocks.go): a source's messages, 64 to a
	// row in source_order, as a JSON array of arrays; the view messages
	// shows one row per message for reading with SQL. The view uses
	// json_extract, not ->>, so that a sqlite3 shell older than 3.38 can
	// still read the schema.
	`
CREATE TABLE message_blocks (
	source   TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
	first    INTEGER NOT NULL,
	last     INTEGER NOT NULL,
	count    INTEGER NOT NULL,
	messages TEXT NOT NULL,
	PRIMARY KEY (source, first)
) WITHOUT ROWID;
INSERT INTO message_blocks (source, first, last, count, messages)
	SELECT source, min(source_order), max(source_order), count(*),
		json_group_array(json_array(source_order, message_id, date, time, occurred_at, sender, type, text) ORDER BY source_order)
	FROM (SELECT *, (row_number() OVER (PARTITION BY source ORDER BY source_order) - 1) / 64 AS block FROM messages)
	GROUP BY source, block;
DROP TABLE messages;
CREATE VIEW messages (source, source_order, message_id, date, time, occurred_at, sender, type, text) AS
	SELECT b.source, json_extract(m.value, '$[0]'), json_extract(m.value, '$[1]'), json_extract(m.value, '$[2]'),
		json_extract(m.value, '$[3]'), json_extract(m.value, '$[4]'), json_extract(m.value, '$[5]'),
		json_extract(m.value, '$[6]'), json_extract(m.value, '$[7]')
	FROM message_blocks b, json_each(b.messages) m;
`,
	// 8: judging sessions (lib/workbench): whether each label was given
	// blind (1) or with the sources revealed (0) and the seconds spent on
	// the row, NULL where unknown (labels stored before); and every label,
	// note and keep/drop as an event, for undo/redo and the History view.
	// state is 'done', 'undone' (redo may apply it again) or 'dropped' (an
	// undone event a later change replaced). before and after are the
	// values as JSON (null: none).
	`
ALTER TABLE gold_judgments ADD COLUMN blind INTEGER CHECK (blind IN (0, 1));
ALTER TABLE gold_judgments ADD COLUMN seconds REAL CHECK (seconds >= 0);
CREATE TABLE gold_events (
	event_id  INTEGER PRIMARY KEY,
	annotator TEXT NOT NULL,
	qid       TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	chunk_id  TEXT NOT NULL,
	kind      TEXT NOT NULL CHECK (kind IN ('label', 'note', 'decision')),
	before    TEXT NOT NULL,
	after     TEXT NOT NULL,
	at        TEXT NOT NULL,
	state     TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('done', 'undone', 'dropped'))
);
CREATE INDEX gold_events_by_annotator ON gold_events(annotator, state, event_id);
`,
	// 9: the chat's title from a .txt export's header ("" when unknown).
	`
ALTER TABLE sources ADD COLUMN title TEXT NOT NULL DEFAULT '';
`,
	// 10: summaries whose response was incomplete (the output limit was
	// reached), kept apart from summaries with the response's status, so
	// that no retriever reads a cut summary as a whole one.
	`
CREATE TABLE incomplete_summaries (
	chunk_id  TEXT PRIMARY KEY REFERENCES chunks(chunk_id) ON DELETE CASCADE,
	summary   TEXT NOT NULL,
	origin    TEXT NOT NULL,
	status    TEXT NOT NULL,
	stored_at TEXT NOT NULL
);
`,
	// 11: adjudications (lib/workbench): the labels annotators a and b
	// (a < b) had on the row when the consensus label was chosen (NULL: not
	// labelled), so that a later change by either makes the adjudication
	// obsolete instead of silently standing; and of a label's seconds on its
	// row, those spent with the sources hidden (NULL where unknown).
	`
CREATE TABLE gold_adjudications (
	a        TEXT NOT NULL,
	b        TEXT NOT NULL,
	qid      TEXT NOT NULL REFERENCES gold_questions(qid) ON DELETE CASCADE,
	chunk_id TEXT NOT NULL,
	a_rel    INTEGER CHECK (a_rel IN (0, 1, 2)),
	b_rel    INTEGER CHECK (b_rel IN (0, 1, 2)),
	at       TEXT NOT NULL,
	PRIMARY KEY (a, b, qid, chunk_id)
) WITHOUT ROWID;
ALTER TABLE gold_judgments ADD COLUMN blind_seconds REAL CHECK (blind_seconds >= 0);
`,
}

// migrate applies the migrations above the file's user_version, each in its
// own write transaction together with the version bump. The version is read
// inside that transaction, so two processes opening a fresh file at once do
// not both run a migration. A migration that rewrites a table into another
// layout (5, 6, 7) leaves the old table's pages free; when the process that
// upgraded a file written before (user_version above 0) finds more than a
// tenth of it free, it compacts the file once (compactAfterMigration). A new
// file is never compacted: its few free pages are reused by the first write.
func (s *Store) migrate() error {
	first := -1 // the version of the first migration this process ran
	for {
		from, done, err := s.migrateOnce()
		if err != nil {
			return err
		}
		if done {
			break
		}
		if first < 0 {
			first = from
		}
	}
	if first > 0 {
		compact(s)
	}
	return nil
}

// compact is compactAfterMigration; a variable so that a test can see which
// opens consider compacting.
var compact = (*Store).compactAfterMigration

// compactAfterMigration runs VACUUM when more than a tenth of the file's
// pages are free. Converting the paper-scale database of schema 6 to message
// blocks frees the old table's 51 MB: 141 MB with 36 % free (88 MB after
// VACUUM, 0.2 s more) with messages alone, 446 MB with 11.5 % free with
// summaries and two sets of 1,536-d vectors (392 MB after VACUUM; the
// upgrade takes 3.4 s instead of 2.5 s). Compacting is an optimisation,
// so its failure (a disk without room for the copy VACUUM writes, say) is
// ignored, as is a process stopped between the migration's commit and the
// VACUUM: the database is whole either way, and later writes reuse the free
// pages.
func (s *Store) compactAfterMigration() {
	var pages, free int64
	if err := s.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		return
	}
	if err := s.db.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil || 10*free <= pages {
		return
	}
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	// VACUUM builds its copy as a temporary database, which with the
	// connections' temp_store(MEMORY) and page cache stays in memory: 530 MiB
	// peak for the 446 MB file above. In a file and through SQLite's default
	// cache it takes 45 MiB and no longer.
	if _, err := conn.ExecContext(ctx, `PRAGMA temp_store = FILE`); err != nil {
		return
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA cache_size = -2000`); err == nil {
		conn.ExecContext(ctx, `VACUUM`)
	}
	conn.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = -%d`, cacheKiB))
	conn.ExecContext(ctx, `PRAGMA temp_store = MEMORY`)
}

// migrateOnce applies the next pending migration, the one above version
// from; done reports that there was none.
func (s *Store) migrateOnce() (from int, done bool, err error) {
	tx, err := s.db.Begin() // BEGIN IMMEDIATE: holds the write lock from here
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	version, err := readSchema(tx, s.path)
	if err != nil {
		return 0, false, err
	}
	if version > len(migrations) {
		return 0, false, fmt.Errorf("schema version %d is newer than this linemem supports (%d)", version, len(migrations))
	}
	if version == len(migrations) {
		return version, true, nil
	}
	if _, err := tx.Exec(migrations[version]); err != nil {
		return 0, false, fmt.Errorf("migration %d: %w", version+1, err)
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, version+1)); err != nil {
		return 0, false, fmt.Errorf("migration %d: %w", version+1, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, false, fmt.Errorf("migration %d: %w", version+1, err)
	}
	return version, false, nil
}

// errNotLinemem marks a file that linemem did not write, or that lost its
// schema version: linemem does not write into it.
var errNotLinemem = errors.New("not a linemem database")

// readSchema returns the file's schema version (user_version), refusing a
// file that holds tables but not linemem's sources table (made by migration
// 1 and kept by every later one): another program's database, which a
// migration would add linemem's tables to whatever its user_version. A file
// with linemem's tables at version 0 is a copy that lost its version
// (sqlite3's .dump does not carry user_version), on which migration 1 would
// fail with "table sources already exists". A file with no table is new.
// Version and tables are read by one statement, so a process migrating the
// file meanwhile is seen before or after a migration, never halfway.
func readSchema(q queryer, path string) (version int, err error) {
	var tables int
	var hasSources bool
	if err := q.QueryRow(`SELECT (SELECT user_version FROM pragma_user_version), count(*), coalesce(max(name = 'sources'), 0)
		FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).Scan(&version, &tables, &hasSources); err != nil {
		return 0, err
	}
	switch {
	case tables == 0:
		return version, nil
	case !hasSources:
		what := fmt.Sprintf("%d tables", tables)
		if tables == 1 {
			what = "1 table"
		}
		return 0, &explained{err: errNotLinemem, msg: fmt.Sprintf("%s is an SQLite database that linemem did not write (%s, schema version %d, no linemem sources table); "+
			"linemem keeps its memory in a file of its own: give --db a new path", path, what, version)}
	case version == 0:
		return 0, &explained{err: errNotLinemem, msg: fmt.Sprintf("%s holds linemem's tables but no schema version (PRAGMA user_version is 0), as a copy made with sqlite3's .dump does; "+
			"give it the version of the database it was copied from: sqlite3 %s \"PRAGMA user_version = N\", N from sqlite3 ORIGINAL.db \"PRAGMA user_version\" "+
			"(a database this linemem wrote has version %d)", path, path, len(migrations))}
	}
	return version, nil
}

// inTx runs f in one transaction, committing when f returns nil.
func (s *Store) inTx(f func(tx *sql.Tx) error) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer s.writeBehind()()
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// batchInsert inserts rows with multi-row INSERT statements of up to
// batchRows rows each, which costs far less per row than one statement per
// row through database/sql.
type batchInsert struct {
	tx   *sql.Tx
	head string // "INSERT INTO t (a, b) VALUES "
	tail string // optional conflict clause
	cols int
	per  int // rows per statement
	full *sql.Stmt
	args []any
	rows int // queued rows in args
}

// batchRows keeps a full statement's parameters (rows × columns) well under
// SQLite's limit of 32,766.
const batchRows = 256

func newBatchInsert(tx *sql.Tx, head, tail string, cols int) (*batchInsert, error) {
	return newInsert(tx, head, tail, cols, batchRows)
}

// newRowInsert inserts one row per statement. For rows that land at random
// places in large indexes this is cheaper than a multi-row INSERT: a
// statement that may write several rows and then fail a constraint keeps a
// statement journal of every page it changes, and such a statement changes
// a few hundred index pages; a one-row statement needs none.
func newRowInsert(tx *sql.Tx, head, tail string, cols int) (*batchInsert, error) {
	return newInsert(tx, head, tail, cols, 1)
}

func newInsert(tx *sql.Tx, head, tail string, cols, per int) (*batchInsert, error) {
	b := &batchInsert{tx: tx, head: head, tail: tail, cols: cols, per: per}
	stmt, err := tx.Prepare(b.statement(per))
	if err != nil {
		return nil, err
	}
	b.full = stmt
	b.args = make([]any, 0, cols*per)
	return b, nil
}

func (b *batchInsert) statement(rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?,", b.cols), ",") + ")"
	return b.head + strings.TrimSuffix(strings.Repeat(row+",", rows), ",") + " " + b.tail
}

// add queues one row of exactly cols values.
func (b *batchInsert) add(values ...any) error {
	b.args = append(b.args, values...)
	b.rows++
	if b.rows < b.per {
		return nil
	}
	_, err := b.full.Exec(b.args...)
	b.args, b.rows = b.args[:0], 0
	return err
}

// abandon releases the prepared statement without writing queued rows, after
// an error that rolls the transaction back.
func (b *batchInsert) abandon() { b.full.Close() }

// flush writes the queued rows and releases the prepared statement.
func (b *batchInsert) flush() error {
	defer b.full.Close()
	return b.write()
}

// write writes the queued rows now.
func (b *batchInsert) write() error {
	if b.rows == 0 {
		return nil
	}
	_, err := b.tx.Exec(b.statement(b.rows), b.args...)
	b.args, b.rows = b.args[:0], 0
	return err
}
