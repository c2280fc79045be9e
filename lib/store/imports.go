package store

import (
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/linemem/linemem/lib/jsonl"

	"github.com/linemem/linemem/lib/inputerr"
)

// Search representations that vectors may be stored for (spec §7).
const (
	RepRawText       = "raw_text"
	RepSummary       = "summary"
	RepEmbeddingText = "embedding_text"
)

// Reps lists the representations in the paper's order.
var Reps = []string{RepRawText, RepSummary, RepEmbeddingText}

// ValidRep reports an error unless rep is one of Reps.
func ValidRep(rep string) error {
	if slices.Contains(Reps, rep) {
		return nil
	}
	return fmt.Errorf("store: representation %q: expected one of raw_text, summary, embedding_text", rep)
}

// OriginImport marks summaries that came from ImportSummaries.
const OriginImport = "import"

// InputError reports a bad line of an import file: the file, the 1-based line
// and what was expected there.
type InputError = inputerr.Error

// SummaryRow is one chunk summary with where it came from (OriginImport, or a
// provider's name and model).
type SummaryRow struct {
	ChunkID string
	Summary string
	Origin  string
}

// VectorRow is one vector: Key is a chunk ID for chunk vectors and the
// question text, verbatim, for query vectors.
type VectorRow struct {
	Key    string
	Vector []float32
}

// jsonProblem phrases a decoding error as what was expected instead.
func jsonProblem(shape string, err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return fmt.Sprintf("%s, got %s", shape, typeErr.Value)
		}
		return fmt.Sprintf("%q to be a %s, got %s (%s)", typeErr.Field, typeErr.Type, typeErr.Value, shape)
	}
	var elemErr *elementError
	if errors.As(err, &elemErr) {
		return elemErr.Error()
	}
	return fmt.Sprintf("%s (%v)", shape, err)
}

const summaryShape = `a JSON object {"chunk_id": string, "summary": string}`

// ImportSummaries reads summaries JSONL (spec §11: {"chunk_id", "summary"} per
// line, other fields ignored, blank lines skipped) from r, naming file in
// errors, and stores them with origin OriginImport. The last line for a chunk
// ID wins; the count returned is of distinct chunk IDs. Bad JSON, a missing or
// mistyped field, invalid UTF-8 or a chunk ID not in the corpus is an
// *InputError naming file and line, and then nothing is stored.
//
// Lines are parsed on every core while the rows before them are written in
// one write transaction, which an error rolls back.
func (s *Store) ImportSummaries(file string, r io.Reader) (int, error) {
	var count int
	err := s.inTx(func(tx *sql.Tx) error {
		known, ins, err := beginSummaries(tx)
		if err != nil {
			return err
		}
		at := now()
		seen := map[string]struct{}{}
		err = parallelLines(file, r, func(line int, data []byte) (SummaryRow, error) {
			return parseSummaryLine(file, line, data)
		}, func(line int, row SummaryRow) error {
			if _, ok := known[row.ChunkID]; !ok {
				return inputerr.At(file, line, fmt.Sprintf("a chunk_id of the corpus, got %q", row.ChunkID))
			}
			if _, dup := seen[row.ChunkID]; dup {
				// A later line replaces an earlier one: write the queued
				// rows first, so that the upsert sees the earlier row.
				if err := ins.write(); err != nil {
					return err
				}
			} else {
				seen[row.ChunkID] = struct{}{}
			}
			return ins.add(row.ChunkID, row.Summary, row.Origin, at)
		})
		if err != nil {
			ins.abandon()
			return err
		}
		count = len(seen)
		return ins.flush()
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

// parseSummaryLine reads one summaries JSONL line, with the one-pass scanner
// when it takes the line and encoding/json otherwise.
func parseSummaryLine(file string, line int, data []byte) (SummaryRow, error) {
	if id, summary, ok := scanSummaryLine(data); ok {
		return SummaryRow{ChunkID: id, Summary: summary, Origin: OriginImport}, nil
	}
	return decodeSummaryLine(file, line, data)
}

// decodeSummaryLine reads one summaries JSONL line with encoding/json.
func decodeSummaryLine(file string, line int, data []byte) (SummaryRow, error) {
	var v struct {
		ChunkID *string `json:"chunk_id"`
		Summary *string `json:"summary"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return SummaryRow{}, inputerr.At(file, line, jsonProblem(summaryShape, err))
	}
	switch {
	case v.ChunkID == nil:
		return SummaryRow{}, inputerr.At(file, line, `a string field "chunk_id"`)
	case v.Summary == nil:
		return SummaryRow{}, inputerr.At(file, line, `a string field "summary"`)
	}
	return SummaryRow{ChunkID: *v.ChunkID, Summary: *v.Summary, Origin: OriginImport}, nil
}

// beginSummaries starts a write of summaries in tx: it bumps their content
// version and returns the corpus's chunk IDs and the insert of summary rows
// (a later row of a chunk replaces the stored one).
func beginSummaries(tx *sql.Tx) (known map[string]struct{}, ins *batchInsert, err error) {
	if err := bumpContent(tx, ContentSummaries); err != nil {
		return nil, nil, err
	}
	if known, err = chunkIDSet(tx); err != nil {
		return nil, nil, err
	}
	ins, err = newSummaryInsert(tx)
	return known, ins, err
}

func newSummaryInsert(tx *sql.Tx) (*batchInsert, error) {
	return newBatchInsert(tx, `INSERT INTO summaries (chunk_id, summary, origin, imported_at) VALUES `,
		`ON CONFLICT (chunk_id) DO UPDATE SET summary = excluded.summary, origin = excluded.origin, imported_at = excluded.imported_at`, 4)
}

// PutSummaries stores rows in one transaction, replacing earlier summaries of
// the same chunks. A chunk ID not in the corpus or an empty origin is an
// error, and then nothing is stored.
func (s *Store) PutSummaries(rows []SummaryRow) error {
	return s.inTx(func(tx *sql.Tx) error {
		known, ins, err := beginSummaries(tx)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if r.Origin == "" {
				ins.abandon()
				return fmt.Errorf("store: summary of %s: empty origin", r.ChunkID)
			}
			if _, ok := known[r.ChunkID]; !ok {
				ins.abandon()
				return fmt.Errorf("store: summary of %s: no such chunk", r.ChunkID)
			}
		}
		at := now()
		for _, r := range lastPerKey(rows, func(r SummaryRow) string { return r.ChunkID }) {
			if err := ins.add(r.ChunkID, r.Summary, r.Origin, at); err != nil {
				ins.abandon()
				return err
			}
		}
		if err := ins.flush(); err != nil {
			return err
		}
		return dropIncomplete(tx, rows)
	})
}

// dropIncomplete deletes the incomplete summaries of the chunks a complete
// summary is stored for.
func dropIncomplete(tx *sql.Tx, rows []SummaryRow) error {
	if n, err := count(tx, `SELECT count(*) FROM incomplete_summaries`); err != nil || n == 0 {
		return err
	}
	stmt, err := tx.Prepare(`DELETE FROM incomplete_summaries WHERE chunk_id = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rows {
		if _, err := stmt.Exec(r.ChunkID); err != nil {
			return err
		}
	}
	return nil
}

func count(tx *sql.Tx, query string) (int, error) {
	var n int
	err := tx.QueryRow(query).Scan(&n)
	return n, err
}

// IncompleteSummary is a summary whose response was cut short: Status is the
// response's ("incomplete"), Origin the provider and model.
type IncompleteSummary struct {
	ChunkID, Summary, Origin, Status string
}

// PutIncompleteSummaries stores rows apart from the summaries (which keep
// any summary the chunks had), replacing earlier incomplete ones of the same
// chunks. A chunk ID not in the corpus or an empty origin or status is an
// error, and then nothing is stored.
func (s *Store) PutIncompleteSummaries(rows []IncompleteSummary) error {
	return s.inTx(func(tx *sql.Tx) error {
		known, err := chunkIDSet(tx)
		if err != nil {
			return err
		}
		at := now()
		for _, r := range rows {
			if r.Origin == "" || r.Status == "" {
				return fmt.Errorf("store: incomplete summary of %s: empty origin or status", r.ChunkID)
			}
			if _, ok := known[r.ChunkID]; !ok {
				return fmt.Errorf("store: incomplete summary of %s: no such chunk", r.ChunkID)
			}
			if _, err := tx.Exec(`INSERT OR REPLACE INTO incomplete_summaries (chunk_id, summary, origin, status, stored_at) VALUES (?, ?, ?, ?, ?)`,
				r.ChunkID, r.Summary, r.Origin, r.Status, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// IncompleteSummaries returns every stored incomplete summary by chunk ID.
func (s *Store) IncompleteSummaries() (map[string]IncompleteSummary, error) {
	rows, err := s.db.Query(`SELECT chunk_id, summary, origin, status FROM incomplete_summaries`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]IncompleteSummary{}
	for rows.Next() {
		var r IncompleteSummary
		if err := rows.Scan(&r.ChunkID, &r.Summary, &r.Origin, &r.Status); err != nil {
			return nil, err
		}
		out[r.ChunkID] = r
	}
	return out, rows.Err()
}

// Summaries returns every stored summary by chunk ID.
func (s *Store) Summaries() (map[string]string, error) {
	rows, err := s.db.Query(`SELECT chunk_id, summary FROM summaries`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, err
		}
		out[id] = text
	}
	return out, rows.Err()
}

func (s *Store) chunkIDSet() (map[string]struct{}, error) { return chunkIDSet(s.db) }

func chunkIDSet(q queryer) (map[string]struct{}, error) {
	rows, err := q.Query(`SELECT chunk_id FROM chunks`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]struct{}{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = struct{}{}
	}
	return out, rows.Err()
}

// vectorElement decodes one JSON number into a float32, refusing null,
// strings and values beyond float32's range (which would become ±Inf).
type vectorElement float32

// elementError is a vector element that is not a finite float32.
type elementError struct{ raw string }

func (e *elementError) Error() string {
	return fmt.Sprintf("vector elements to be finite numbers within float32 range, got %s", e.raw)
}

func (v *vectorElement) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 32)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return &elementError{raw: string(b)}
	}
	*v = vectorElement(f)
	return nil
}

const vectorShape = `a JSON object {"key": string, "vector": [number, …]}`

// readVectors parses vectors JSONL (spec §11), checking every line for shape,
// finite elements and one shared dimension (dim, or the first line's when dim
// is 0), and keyOK for the key. The last line for a key wins. It returns the
// rows in first-appearance order of their keys and the dimension.
func readVectors(file string, r io.Reader, dim int, keyOK func(string) (string, bool)) ([]VectorRow, int, error) {
	var rows []VectorRow
	at := map[string]int{}
	var scratch []float32
	err := jsonl.Lines(file, r, func(line int, data []byte) error {
		key, elems, ok := scanVectorLine(data, scratch)
		if ok {
			scratch = elems
		} else {
			var err error
			if key, elems, err = decodeVectorLine(data); err != nil {
				return inputerr.At(file, line, err.Error())
			}
		}
		if expected, ok := keyOK(key); !ok {
			return inputerr.At(file, line, fmt.Sprintf("%s, got %q", expected, key))
		}
		if dim == 0 {
			dim = len(elems)
		}
		if len(elems) != dim {
			return inputerr.At(file, line, fmt.Sprintf("a vector of dimension %d, got %d", dim, len(elems)))
		}
		row := VectorRow{Key: key, Vector: slices.Clone(elems)}
		if i, seen := at[row.Key]; seen {
			rows[i] = row
		} else {
			at[row.Key] = len(rows)
			rows = append(rows, row)
		}
		return nil
	})
	return rows, dim, err
}

// decodeVectorLine decodes one vectors JSONL line with encoding/json; the
// error says what was expected.
func decodeVectorLine(data []byte) (string, []float32, error) {
	var v struct {
		Key    *string          `json:"key"`
		Vector *[]vectorElement `json:"vector"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return "", nil, errors.New(jsonProblem(vectorShape, err))
	}
	switch {
	case v.Key == nil:
		return "", nil, errors.New(`a string field "key"`)
	case v.Vector == nil || len(*v.Vector) == 0:
		return "", nil, errors.New(`a non-empty number array "vector"`)
	}
	vec := make([]float32, len(*v.Vector))
	for i, x := range *v.Vector {
		vec[i] = float32(x)
	}
	return *v.Key, vec, nil
}

// modelDim returns the dimension already stored for model across chunk and
// query vectors, or 0 when it has none: all vectors of one model share one
// dimension (spec §11).
func modelDim(q queryer, model string) (int, error) {
	var dim int
	err := q.QueryRow(`SELECT dim FROM (
		SELECT dim FROM vectors WHERE model = ?
		UNION ALL SELECT dim FROM query_vectors WHERE model = ?) LIMIT 1`, model, model).Scan(&dim)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return dim, err
}

// ImportVectors reads chunk vectors JSONL ({"key": chunk_id, "vector": […]})
// for representation rep and embedding model from r, naming file in errors,
// and stores them with inputCap, the embedding input cap they were made with
// (0 when unknown). The last line for a key wins; the count returned is of
// distinct keys. A malformed line, an element that is not a finite float32, a
// dimension other than the model's (its stored vectors', else the file's first
// line's) or a chunk ID not in the corpus is an *InputError naming file and
// line, and then nothing is stored.
//
// The import is one write transaction: lines are parsed on every core while
// the rows before them are written, and an error rolls everything back.
func (s *Store) ImportVectors(rep, model string, inputCap int, file string, r io.Reader) (int, error) {
	if err := checkVectorSet(rep, model, inputCap); err != nil {
		return 0, err
	}
	var count int
	err := s.inTx(func(tx *sql.Tx) error {
		known, err := chunkIDSet(tx)
		if err != nil {
			return err
		}
		dim, err := modelDim(tx, model)
		if err != nil {
			return err
		}
		if err := bumpContent(tx, ContentVectors); err != nil {
			return err
		}
		w, err := newVectorWriter(tx, rep, model, inputCap)
		if err != nil {
			return err
		}
		seen := map[string]struct{}{}
		var hint atomic.Int64 // the dimension last read, to size the next vector
		err = parallelLines(file, r, func(line int, data []byte) (VectorRow, error) {
			return parseVectorLine(file, line, data, &hint)
		}, func(line int, row VectorRow) error {
			if _, ok := known[row.Key]; !ok {
				return inputerr.At(file, line, fmt.Sprintf("a chunk_id of the corpus as key, got %q", row.Key))
			}
			if dim == 0 {
				dim = len(row.Vector)
			}
			if len(row.Vector) != dim {
				return inputerr.At(file, line, fmt.Sprintf("a vector of dimension %d, got %d", dim, len(row.Vector)))
			}
			seen[row.Key] = struct{}{}
			return w.add(row.Key, row.Vector)
		})
		if err != nil {
			w.abandon()
			return err
		}
		count = len(seen)
		return w.finish()
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

// parseVectorLine reads one vectors JSONL line, with the one-pass scanner
// when it takes the line and encoding/json otherwise; hint carries the last
// dimension read, so that the vector is allocated once at its size.
func parseVectorLine(file string, line int, data []byte, hint *atomic.Int64) (VectorRow, error) {
	key, vec, ok := scanVectorLine(data, make([]float32, 0, int(hint.Load())))
	if !ok {
		var err error
		if key, vec, err = decodeVectorLine(data); err != nil {
			return VectorRow{}, inputerr.At(file, line, err.Error())
		}
	}
	hint.Store(int64(len(vec)))
	return VectorRow{Key: key, Vector: vec}, nil
}

// ImportQueryVectors reads query vectors JSONL ({"key": question text
// verbatim, "vector": […]}) for embedding model, with ImportVectors' checks
// except that any non-empty key is accepted.
func (s *Store) ImportQueryVectors(model string, file string, r io.Reader) (int, error) {
	if model == "" {
		return 0, errors.New("store: empty model name")
	}
	dim, err := modelDim(s.db, model)
	if err != nil {
		return 0, err
	}
	rows, _, err := readVectors(file, r, dim, func(key string) (string, bool) {
		return "a non-empty question text as key", key != ""
	})
	if err != nil {
		return 0, err
	}
	if err := s.PutQueryVectors(model, rows); err != nil {
		return 0, err
	}
	return len(rows), nil
}

func checkVectorSet(rep, model string, inputCap int) error {
	if err := ValidRep(rep); err != nil {
		return err
	}
	if model == "" {
		return errors.New("store: empty model name")
	}
	if inputCap < 0 {
		return fmt.Errorf("store: input cap %d: expected ≥ 0 (0 = unknown)", inputCap)
	}
	return nil
}

// checkVectors checks rows against the model's dimension (or the first row's
// when the model has none) and for finite elements; it returns the dimension.
func checkVectors(q queryer, model string, rows []VectorRow) (int, error) {
	dim, err := modelDim(q, model)
	if err != nil {
		return 0, err
	}
	for _, r := range rows {
		if dim == 0 {
			dim = len(r.Vector)
		}
		if len(r.Vector) == 0 || len(r.Vector) != dim {
			return 0, fmt.Errorf("store: vector %q of model %s: expected dimension %d, got %d", r.Key, model, dim, len(r.Vector))
		}
		for _, x := range r.Vector {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return 0, fmt.Errorf("store: vector %q of model %s: expected finite elements, got %v", r.Key, model, x)
			}
		}
	}
	return dim, nil
}

// PutChunkVectors stores chunk vectors of (rep, model) made with inputCap in
// one transaction, replacing earlier vectors of the same chunks. A chunk ID not
// in the corpus, a dimension other than the model's or a non-finite element
// is an error, and then nothing is stored.
func (s *Store) PutChunkVectors(rep, model string, inputCap int, rows []VectorRow) error {
	if err := checkVectorSet(rep, model, inputCap); err != nil {
		return err
	}
	return s.inTx(func(tx *sql.Tx) error {
		if _, err := checkVectors(tx, model, rows); err != nil {
			return err
		}
		if err := bumpContent(tx, ContentVectors); err != nil {
			return err
		}
		known, err := chunkIDSet(tx)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if _, ok := known[r.Key]; !ok {
				return fmt.Errorf("store: %s vector of %s: no such chunk", rep, r.Key)
			}
		}
		w, err := newVectorWriter(tx, rep, model, inputCap)
		if err != nil {
			return err
		}
		for _, r := range lastPerKey(rows, func(r VectorRow) string { return r.Key }) {
			if err := w.add(r.Key, r.Vector); err != nil {
				w.abandon()
				return err
			}
		}
		return w.finish()
	})
}

// PutQueryVectors stores query vectors of model keyed by question text in one
// transaction, replacing earlier vectors of the same questions, with
// PutChunkVectors' checks except chunk existence; an empty key is an error.
func (s *Store) PutQueryVectors(model string, rows []VectorRow) error {
	if model == "" {
		return errors.New("store: empty model name")
	}
	return s.inTx(func(tx *sql.Tx) error {
		dim, err := checkVectors(tx, model, rows)
		if err != nil {
			return err
		}
		stmt, err := tx.Prepare(`INSERT INTO query_vectors (model, question_text, dim, vec) VALUES (?, ?, ?, ?)
			ON CONFLICT (model, question_text) DO UPDATE SET dim = excluded.dim, vec = excluded.vec`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, r := range rows {
			if r.Key == "" {
				return fmt.Errorf("store: query vector of model %s: empty question text", model)
			}
			if _, err := stmt.Exec(model, r.Key, dim, encodeVector(r.Vector)); err != nil {
				return err
			}
		}
		return nil
	})
}

// lastPerKey returns rows sorted by key, keeping the last row of each key
// (a later row replaces an earlier one, as row-by-row upserts would). One
// multi-row INSERT may not name a key twice, and B-tree inserts in key order
// touch each page once instead of at random.
func lastPerKey[R any](rows []R, key func(R) string) []R {
	sorted := slices.SortedStableFunc(slices.Values(rows), func(a, b R) int { return strings.Compare(key(a), key(b)) })
	out := sorted[:0]
	for i, r := range sorted {
		if i+1 < len(sorted) && key(sorted[i+1]) == key(r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// vectorBytes returns v as little-endian IEEE 754 float32s: v's own memory
// on a little-endian machine, else a copy.
func vectorBytes(v []float32) []byte {
	if len(v) == 0 || !nativeLittleEndian() {
		return encodeVector(v)
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}

// encodeVector lays v out as little-endian IEEE 754 float32s.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(dst []float32, b []byte) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// QueryVector returns the vector of question (verbatim) under model; found is
// false when there is none.
func (s *Store) QueryVector(model, question string) (vec []float32, found bool, err error) {
	var dim int
	var blob []byte
	err = s.db.QueryRow(`SELECT dim, vec FROM query_vectors WHERE model = ? AND question_text = ?`, model, question).Scan(&dim, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if len(blob) != 4*dim {
		return nil, false, fmt.Errorf("store: query vector of model %s: %d bytes for dimension %d", model, len(blob), dim)
	}
	vec = make([]float32, dim)
	decodeVector(vec, blob)
	return vec, true, nil
}
