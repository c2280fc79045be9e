package workbench

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
)

// Judgment is one label (spec §13 judgments JSONL). Rel is nil for a row that
// carries only a note.
type Judgment struct {
	QID       string `json:"qid"`
	ChunkID   string `json:"chunk_id"`
	Rel       *int   `json:"rel"`
	Annotator string `json:"annotator"`
	Note      string `json:"note,omitempty"`
	At        string `json:"at,omitempty"` // RFC 3339
}

// ErrUnknown marks a qid that was never pooled, a chunk_id that is not stored
// or, for Label and Note, a chunk outside the question's pool.
var ErrUnknown = errors.New("unknown")

// Label sets annotator's relevance of (qid, chunkID), keeping its note; a nil
// rel removes the label (the note stays, if any).
func (b *Bench) Label(annotator, qid, chunkID string, rel *int) error {
	if err := b.checkRow(annotator, qid, chunkID, rel); err != nil {
		return err
	}
	_, err := b.db.Exec(`INSERT INTO gold_judgments (annotator, qid, chunk_id, rel, note, at) VALUES (?, ?, ?, ?, '', ?)
		ON CONFLICT (annotator, qid, chunk_id) DO UPDATE SET rel = excluded.rel, at = excluded.at`,
		annotator, qid, chunkID, relValue(rel), b.now())
	if err != nil {
		return err
	}
	return b.dropEmpty(annotator, qid, chunkID)
}

// MaxNoteBytes is the longest note Note stores: 1 MiB.
const MaxNoteBytes = 1 << 20

// Note sets annotator's note on (qid, chunkID), keeping its label; a note
// over MaxNoteBytes is refused.
func (b *Bench) Note(annotator, qid, chunkID, note string) error {
	if len(note) > MaxNoteBytes {
		return fmt.Errorf("a note may hold up to %d bytes, got %d", MaxNoteBytes, len(note))
	}
	if err := b.checkRow(annotator, qid, chunkID, nil); err != nil {
		return err
	}
	_, err := b.db.Exec(`INSERT INTO gold_judgments (annotator, qid, chunk_id, rel, note, at) VALUES (?, ?, ?, NULL, ?, ?)
		ON CONFLICT (annotator, qid, chunk_id) DO UPDATE SET note = excluded.note, at = excluded.at`,
		annotator, qid, chunkID, note, b.now())
	if err != nil {
		return err
	}
	return b.dropEmpty(annotator, qid, chunkID)
}

// dropEmpty removes a row left with neither label nor note.
func (b *Bench) dropEmpty(annotator, qid, chunkID string) error {
	_, err := b.db.Exec(`DELETE FROM gold_judgments WHERE annotator = ? AND qid = ? AND chunk_id = ? AND rel IS NULL AND note = ''`, annotator, qid, chunkID)
	return err
}

func relValue(rel *int) any {
	if rel == nil {
		return nil
	}
	return *rel
}

// checkRow reports an empty annotator, a rel outside 0–2, a qid that was
// never pooled, a chunkID that is not stored and one that is not in qid's
// pool (the last three wrap ErrUnknown): a label or a note is written only on
// a row of the question's pool.
func (b *Bench) checkRow(annotator, qid, chunkID string, rel *int) error {
	if annotator == "" {
		return errors.New("an annotator name is required")
	}
	if rel != nil && (*rel < 0 || *rel > 2) {
		return fmt.Errorf("relevance must be 0, 1 or 2, got %d", *rel)
	}
	var n int
	if err := b.db.QueryRow(`SELECT COUNT(*) FROM gold_questions WHERE qid = ?`, qid).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w question %q (pool it first)", ErrUnknown, qid)
	}
	if err := b.db.QueryRow(`SELECT COUNT(*) FROM chunks WHERE chunk_id = ?`, chunkID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w chunk %q", ErrUnknown, chunkID)
	}
	if err := b.db.QueryRow(`SELECT COUNT(*) FROM gold_pool WHERE qid = ? AND chunk_id = ?`, qid, chunkID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w row: chunk %q is not in the pool of question %q", ErrUnknown, chunkID, qid)
	}
	return nil
}

// Decide records annotator's keep (true) or drop (false) of a question; a nil
// keep clears the decision.
func (b *Bench) Decide(annotator, qid string, keep *bool) error {
	if annotator == "" {
		return errors.New("an annotator name is required")
	}
	var n int
	if err := b.db.QueryRow(`SELECT COUNT(*) FROM gold_questions WHERE qid = ?`, qid).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w question %q", ErrUnknown, qid)
	}
	if keep == nil {
		_, err := b.db.Exec(`DELETE FROM gold_decisions WHERE annotator = ? AND qid = ?`, annotator, qid)
		return err
	}
	_, err := b.db.Exec(`INSERT OR REPLACE INTO gold_decisions (annotator, qid, keep, at) VALUES (?, ?, ?, ?)`, annotator, qid, *keep, b.now())
	return err
}

// Decisions maps qid → keep for annotator.
func (b *Bench) Decisions(annotator string) (map[string]bool, error) {
	rows, err := b.db.Query(`SELECT qid, keep FROM gold_decisions WHERE annotator = ?`, annotator)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var q string
		var keep bool
		if err := rows.Scan(&q, &keep); err != nil {
			return nil, err
		}
		out[q] = keep
	}
	return out, rows.Err()
}

// Annotators lists everyone with a judgment or a decision, sorted.
func (b *Bench) Annotators() ([]string, error) {
	rows, err := b.db.Query(`SELECT annotator FROM gold_judgments UNION SELECT annotator FROM gold_decisions ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Judgments returns annotator's rows ("" = everyone's), ordered by annotator,
// question pooling order and chunk ID.
func (b *Bench) Judgments(annotator string) ([]Judgment, error) {
	rows, err := b.db.Query(`SELECT j.annotator, j.qid, j.chunk_id, j.rel, j.note, j.at FROM gold_judgments j
		JOIN gold_questions q ON q.qid = j.qid
		WHERE ? = '' OR j.annotator = ? ORDER BY j.annotator, q.position, j.chunk_id`, annotator, annotator)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Judgment
	for rows.Next() {
		var j Judgment
		var rel sql.NullInt64
		if err := rows.Scan(&j.Annotator, &j.QID, &j.ChunkID, &rel, &j.Note, &j.At); err != nil {
			return nil, err
		}
		if rel.Valid {
			r := int(rel.Int64)
			j.Rel = &r
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Labels maps qid → chunk_id → rel of annotator's labelled rows.
func (b *Bench) Labels(annotator string) (map[string]map[string]int, error) {
	js, err := b.Judgments(annotator)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for _, j := range js {
		if j.Rel == nil {
			continue
		}
		if out[j.QID] == nil {
			out[j.QID] = map[string]int{}
		}
		out[j.QID][j.ChunkID] = *j.Rel
	}
	return out, nil
}

// WriteJudgments writes rows as judgments JSONL; rows without a label are
// skipped (the format has no place for them).
func WriteJudgments(w io.Writer, rows []Judgment) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, j := range rows {
		if j.Rel == nil {
			continue
		}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ImportJudgmentsFile imports a judgments file; see ImportJudgments.
func (b *Bench) ImportJudgmentsFile(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return b.ImportJudgments(path, f)
}

// ImportJudgments reads judgments JSONL and stores every row in one
// transaction, replacing earlier rows of the same (annotator, qid, chunk_id);
// a row judged without being pooled joins the pool with OriginJudgment. On
// any bad line nothing is stored. name is used in errors.
func (b *Bench) ImportJudgments(name string, r io.Reader) (int, error) {
	qids, err := b.idSet(`SELECT qid FROM gold_questions`)
	if err != nil {
		return 0, err
	}
	chunks, err := b.idSet(`SELECT chunk_id FROM chunks`)
	if err != nil {
		return 0, err
	}
	var rows []Judgment
	err = jsonl.Lines(name, r, func(line int, data []byte) error {
		var raw struct {
			QID       *string          `json:"qid"`
			ChunkID   *string          `json:"chunk_id"`
			Rel       *json.RawMessage `json:"rel"`
			Annotator *string          `json:"annotator"`
			Note      *string          `json:"note"`
			At        *string          `json:"at"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			return inputerr.At(name, line, `a JSON object {"qid", "chunk_id", "rel", "annotator"} with string fields: `+err.Error())
		}
		if raw.QID == nil || raw.ChunkID == nil || raw.Rel == nil || raw.Annotator == nil || *raw.Annotator == "" {
			return inputerr.At(name, line, `"qid", "chunk_id", "rel" and a non-empty "annotator"`)
		}
		var rel int
		if err := json.Unmarshal(*raw.Rel, &rel); err != nil || rel < 0 || rel > 2 {
			return inputerr.Atf(name, line, `"rel" 0, 1 or 2, got %s`, string(*raw.Rel))
		}
		if !qids[*raw.QID] {
			return inputerr.Atf(name, line, "a pooled qid, got %q", *raw.QID)
		}
		if !chunks[*raw.ChunkID] {
			return inputerr.Atf(name, line, "a stored chunk_id, got %q", *raw.ChunkID)
		}
		j := Judgment{QID: *raw.QID, ChunkID: *raw.ChunkID, Rel: &rel, Annotator: *raw.Annotator}
		if raw.Note != nil {
			j.Note = *raw.Note
		}
		if raw.At != nil {
			if _, err := time.Parse(time.RFC3339, *raw.At); err != nil {
				return inputerr.Atf(name, line, `"at" in RFC 3339, got %q`, *raw.At)
			}
			j.At = *raw.At
		} else {
			j.At = b.now()
		}
		rows = append(rows, j)
		return nil
	})
	if err != nil {
		return 0, err
	}
	tx, err := b.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	for _, j := range rows {
		if _, err := tx.Exec(`INSERT OR REPLACE INTO gold_judgments (annotator, qid, chunk_id, rel, note, at) VALUES (?, ?, ?, ?, ?, ?)`,
			j.Annotator, j.QID, j.ChunkID, *j.Rel, j.Note, j.At); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(`INSERT INTO gold_pool (qid, chunk_id, origin, detail, rank, score)
			SELECT ?, ?, ?, ?, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM gold_pool WHERE qid = ? AND chunk_id = ?)`,
			j.QID, j.ChunkID, OriginJudgment, j.Annotator, j.QID, j.ChunkID); err != nil {
			return 0, err
		}
	}
	return len(rows), tx.Commit()
}

func (b *Bench) idSet(query string) (map[string]bool, error) {
	rows, err := b.db.Query(query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
