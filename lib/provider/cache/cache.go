// Package cache keeps every generated summary and vector in SQLite, keyed by
// what determines it, together with the provenance of the call that made it.
//
// Key = (sha256 of the exact text sent, provider, requested model, sha256 of
// the provider's Params). A rerun looks each input up before sending, so
// nothing already paid for is sent twice, and Put commits each successful
// call in its own transaction, so an interrupted run loses nothing.
//
// Tables (created idempotently, beside the store's tables in the same file):
//
//	provider_calls    one row per request: provider, kind, requested and returned
//	                  model, params, attempts, latency, token usage, batch size,
//	                  response id and status, SDK version, time
//	provider_outputs  one row per key: the call that produced it, the span of the
//	                  source text sent, the input cap, redaction applied, and the
//	                  summary text or the vector (little-endian float32)
//	provider_states   fitted state of local models (lsa), by provider and model
//
// Nothing secret is stored: calls carry no credentials and the tables have no
// column for one.
package cache

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/linemem/linemem/lib/provider"
)

// Kinds of output. Every kind but KindVector stores text.
const (
	KindSummary = "summary"
	KindVector  = "vector"
	KindAnswer  = "answer"         // a generated answer (lib/answer), stored as text like a summary
	KindDraft   = "question_draft" // candidate questions drafted from a window of messages (lib/questions/draft)
)

const schema = `
CREATE TABLE IF NOT EXISTS provider_calls (
	call_id         INTEGER PRIMARY KEY AUTOINCREMENT,
	provider        TEXT NOT NULL,
	kind            TEXT NOT NULL,
	requested_model TEXT NOT NULL,
	returned_model  TEXT NOT NULL,
	params          TEXT NOT NULL,
	params_sha256   TEXT NOT NULL,
	response_id     TEXT NOT NULL,
	status          TEXT NOT NULL,
	attempts        INTEGER NOT NULL,
	latency_ms      REAL NOT NULL,
	input_tokens    INTEGER NOT NULL,
	output_tokens   INTEGER NOT NULL,
	total_tokens    INTEGER NOT NULL,
	batch_size      INTEGER NOT NULL,
	sdk             TEXT NOT NULL,
	finished_at     TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS provider_outputs (
	input_sha256  TEXT NOT NULL,
	provider      TEXT NOT NULL,
	model         TEXT NOT NULL,
	params_sha256 TEXT NOT NULL,
	kind          TEXT NOT NULL,
	call_id       INTEGER NOT NULL REFERENCES provider_calls(call_id),
	item          TEXT NOT NULL,
	input_chars   INTEGER NOT NULL,
	source_chars  INTEGER NOT NULL,
	head_end      INTEGER NOT NULL,
	tail_start    INTEGER NOT NULL,
	input_cap     INTEGER NOT NULL,
	redaction     TEXT NOT NULL,
	redacted      TEXT NOT NULL,
	text          TEXT,
	dim           INTEGER NOT NULL,
	vector        BLOB,
	created_at    TEXT NOT NULL,
	PRIMARY KEY (input_sha256, provider, model, params_sha256)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS provider_states (
	provider   TEXT NOT NULL,
	model      TEXT NOT NULL,
	state      BLOB NOT NULL,
	sha256     TEXT NOT NULL,
	created_at TEXT NOT NULL,
	PRIMARY KEY (provider, model)
) WITHOUT ROWID;
`

// Cache is safe for concurrent use (as its *sql.DB is).
type Cache struct {
	db *sql.DB
	// Now stamps rows; tests may replace it.
	Now func() time.Time
}

// Open creates the cache tables in db when missing and returns the cache.
func Open(db *sql.DB) (*Cache, error) {
	if _, err := db.Exec(schema); err != nil {
		return nil, fmt.Errorf("cache: create tables: %w", err)
	}
	return &Cache{db: db, Now: time.Now}, nil
}

// Key identifies one output.
type Key struct {
	InputSHA256  string // hex sha256 of the exact text sent
	Provider     string
	Model        string // requested model
	ParamsSHA256 string // provider.ParamsHash of the provider's Params
}

// NewKey builds the key of sending input to p.
func NewKey(input string, p interface {
	Name() string
	Model() string
	Params() string
}) Key {
	return Key{InputSHA256: SHA256(input), Provider: p.Name(), Model: p.Model(), ParamsSHA256: provider.ParamsHash(p.Params())}
}

// SHA256 is hex(sha256(utf8(s))).
func SHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Span says which code points of the source text (the representation after
// redaction) the input carried: [0, HeadEnd) and [TailStart, SourceChars).
// An uncut text has HeadEnd = TailStart = SourceChars; the summary input cuts
// after 7,000 (HeadEnd = TailStart = 7,000 < SourceChars); a capped embedding
// input keeps both ends. Cap is the embedding input cap used (0 for summaries).
type Span struct {
	SourceChars int
	HeadEnd     int
	TailStart   int
	Cap         int
}

// Output is one cached result.
type Output struct {
	Key        Key
	Kind       string         // KindSummary or KindVector
	Item       string         // the chunk ID or question text it was first made for
	InputChars int            // code points of the text sent
	Span       Span           // part of the source text sent
	Redaction  string         // redact.Redactor.Describe of the rules applied
	Redacted   map[string]int // replacements per kind
	Text       string         // summary
	Vector     []float32      // embedding
	CallID     int64          // set by Get
}

// Call is the provenance of one request as stored.
type Call struct {
	Provider  string
	Kind      string
	Params    string
	BatchSize int
	provider.Call
}

// Put stores call and its outputs in one transaction. An output whose key is
// already present is replaced.
func (c *Cache) Put(ctx context.Context, call Call, outs []Output) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	at := c.Now().UTC().Format(time.RFC3339Nano)
	res, err := tx.ExecContext(ctx, `INSERT INTO provider_calls (provider, kind, requested_model, returned_model, params, params_sha256,
		response_id, status, attempts, latency_ms, input_tokens, output_tokens, total_tokens, batch_size, sdk, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		call.Provider, call.Kind, call.RequestedModel, call.ReturnedModel, call.Params, provider.ParamsHash(call.Params),
		call.ResponseID, call.Status, call.Attempts, float64(call.Latency)/float64(time.Millisecond),
		call.Usage.InputTokens, call.Usage.OutputTokens, call.Usage.TotalTokens, call.BatchSize, call.SDK, at)
	if err != nil {
		return fmt.Errorf("cache: record call: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO provider_outputs (input_sha256, provider, model, params_sha256, kind, call_id,
		item, input_chars, source_chars, head_end, tail_start, input_cap, redaction, redacted, text, dim, vector, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, o := range outs {
		redacted, _ := json.Marshal(o.Redacted)
		if o.Redacted == nil {
			redacted = []byte("{}")
		}
		var text any
		var vec any
		if o.Kind != KindVector {
			text = o.Text
		} else {
			vec = encode(o.Vector)
		}
		if _, err := stmt.ExecContext(ctx, o.Key.InputSHA256, o.Key.Provider, o.Key.Model, o.Key.ParamsSHA256, o.Kind, id,
			o.Item, o.InputChars, o.Span.SourceChars, o.Span.HeadEnd, o.Span.TailStart, o.Span.Cap, o.Redaction, string(redacted),
			text, len(o.Vector), vec, at); err != nil {
			return fmt.Errorf("cache: store output: %w", err)
		}
	}
	return tx.Commit()
}

// Get returns the output stored under key.
func (c *Cache) Get(ctx context.Context, key Key) (Output, bool, error) {
	var o Output
	var text sql.NullString
	var vec []byte
	var dim int
	var redacted string
	err := c.db.QueryRowContext(ctx, `SELECT kind, call_id, item, input_chars, source_chars, head_end, tail_start, input_cap,
		redaction, redacted, text, dim, vector FROM provider_outputs
		WHERE input_sha256 = ? AND provider = ? AND model = ? AND params_sha256 = ?`,
		key.InputSHA256, key.Provider, key.Model, key.ParamsSHA256).Scan(&o.Kind, &o.CallID, &o.Item, &o.InputChars,
		&o.Span.SourceChars, &o.Span.HeadEnd, &o.Span.TailStart, &o.Span.Cap, &o.Redaction, &redacted, &text, &dim, &vec)
	if errors.Is(err, sql.ErrNoRows) {
		return Output{}, false, nil
	}
	if err != nil {
		return Output{}, false, err
	}
	o.Key = key
	o.Text = text.String
	if err := json.Unmarshal([]byte(redacted), &o.Redacted); err != nil {
		return Output{}, false, fmt.Errorf("cache: redaction counts of %s: %w", key.InputSHA256, err)
	}
	if o.Kind == KindVector {
		if len(vec) != 4*dim {
			return Output{}, false, fmt.Errorf("cache: vector %s: %d bytes for dimension %d", key.InputSHA256, len(vec), dim)
		}
		o.Vector = decode(vec)
	}
	return o, true, nil
}

// CallCount is the number of recorded calls of provider and kind.
func (c *Cache) CallCount(ctx context.Context, providerName, kind string) (int, error) {
	var n int
	err := c.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM provider_calls WHERE provider = ? AND kind = ?`, providerName, kind).Scan(&n)
	return n, err
}

// PutState stores the fitted state of a local model, replacing any earlier one.
func (c *Cache) PutState(ctx context.Context, providerName, model string, state []byte) error {
	_, err := c.db.ExecContext(ctx, `INSERT OR REPLACE INTO provider_states (provider, model, state, sha256, created_at) VALUES (?, ?, ?, ?, ?)`,
		providerName, model, state, SHA256(string(state)), c.Now().UTC().Format(time.RFC3339Nano))
	return err
}

// State returns the stored state of a local model.
func (c *Cache) State(ctx context.Context, providerName, model string) ([]byte, bool, error) {
	var b []byte
	err := c.db.QueryRowContext(ctx, `SELECT state FROM provider_states WHERE provider = ? AND model = ?`, providerName, model).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return b, err == nil, err
}

func encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decode(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
