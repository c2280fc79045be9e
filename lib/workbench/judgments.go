package workbench

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/regularfile"
)

// Judgment is one label (spec §13 judgments JSONL). Rel is nil for a row that
// carries only a note; Blind and Seconds are nil where unknown (labels given
// before they were recorded, or imported without them).
type Judgment struct {
	QID       string   `json:"qid"`
	ChunkID   string   `json:"chunk_id"`
	Rel       *int     `json:"rel"`
	Annotator string   `json:"annotator"`
	Note      string   `json:"note,omitempty"`
	At        string   `json:"at,omitempty"` // RFC 3339
	Blind     *bool    `json:"blind,omitempty"`
	Seconds   *float64 `json:"seconds,omitempty"`
	// BlindSeconds is the part of Seconds spent with the sources hidden.
	BlindSeconds *float64 `json:"blind_seconds,omitempty"`
}

// Judging is how a label was given: Blind reports that the question's
// sources were hidden, Seconds the time spent on the row and BlindSeconds
// the part of it spent with the sources hidden; nil = unknown.
type Judging struct {
	Blind        *bool
	Seconds      *float64
	BlindSeconds *float64
}

// MaxSeconds is the longest time a label may record on its row (a day):
// more is a clock or a client gone wrong.
const MaxSeconds = 24 * 3600

func (j Judging) check() error {
	if j.Seconds != nil && (math.IsNaN(*j.Seconds) || *j.Seconds < 0 || *j.Seconds > MaxSeconds) {
		return fmt.Errorf("seconds must be between 0 and %d, got %v", MaxSeconds, *j.Seconds)
	}
	if b := j.BlindSeconds; b != nil && (math.IsNaN(*b) || *b < 0 || j.Seconds == nil || *b > *j.Seconds) {
		return fmt.Errorf("blind_seconds must be between 0 and seconds, got %v", *b)
	}
	return nil
}

// MaxAnnotatorBytes is the longest annotator name.
const MaxAnnotatorBytes = 64

// CheckAnnotator reports why name cannot name an annotator: it is empty,
// longer than MaxAnnotatorBytes, not UTF-8, starts or ends with white space,
// or holds a comma (the separator of `gold agreement --annotators`) or a
// control character (tabs and line breaks among them). Every write of a
// label, note or keep/drop and judgments import apply it, so every stored
// annotator can be named on the command line.
func CheckAnnotator(name string) error {
	if name == "" || len(name) > MaxAnnotatorBytes || !utf8.ValidString(name) || strings.TrimSpace(name) != name ||
		strings.ContainsFunc(name, func(r rune) bool { return r == ',' || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) {
		return fmt.Errorf("an annotator name: 1–%d bytes of UTF-8, no commas, control characters or line breaks, no surrounding spaces, got %q", MaxAnnotatorBytes, cutName(name))
	}
	return nil
}

// CheckPerson is CheckAnnotator, and that name is not Consensus, which only
// adjudication writes.
func CheckPerson(name string) error {
	if err := CheckAnnotator(name); err != nil {
		return err
	}
	if name == Consensus {
		return fmt.Errorf("%q is the annotator adjudication writes; choose another name", Consensus)
	}
	return nil
}

// cutName is name cut to MaxAnnotatorBytes bytes for a message.
func cutName(name string) string {
	if len(name) <= MaxAnnotatorBytes {
		return name
	}
	return name[:MaxAnnotatorBytes] + "…"
}

// ErrUnknown marks a qid that was never pooled, a chunk_id that is not stored
// or, for Label and Note, a chunk outside the question's pool.
var ErrUnknown = errors.New("unknown")

// Label sets annotator's relevance of (qid, chunkID), keeping its note; a nil
// rel removes the label (the note stays, if any). See LabelAs.
func (b *Bench) Label(annotator, qid, chunkID string, rel *int) error {
	return b.LabelAs(annotator, qid, chunkID, rel, Judging{})
}

// LabelAs is Label recording how the label was given. A change is an event
// of annotator's history (Undo); setting the label a row already has changes
// nothing.
func (b *Bench) LabelAs(annotator, qid, chunkID string, rel *int, how Judging) error {
	if err := b.checkRow(annotator, qid, chunkID, rel); err != nil {
		return err
	}
	if err := how.check(); err != nil {
		return err
	}
	return b.inTx(func(tx *sql.Tx) error {
		before, err := readLabel(tx, annotator, qid, chunkID)
		if err != nil {
			return err
		}
		after := labelState{Rel: rel}
		if rel != nil {
			after.Blind, after.Seconds, after.BlindSeconds = how.Blind, how.Seconds, how.BlindSeconds
		}
		if sameRel(before.Rel, after.Rel) {
			return nil
		}
		if err := b.writeLabel(tx, annotator, qid, chunkID, after); err != nil {
			return err
		}
		return b.record(tx, annotator, qid, chunkID, kindLabel, before, after)
	})
}

// MaxNoteBytes is the longest note Note stores: 1 MiB.
const MaxNoteBytes = 1 << 20

// Note sets annotator's note on (qid, chunkID), keeping its label; a note
// over MaxNoteBytes is refused. Successive edits of one row's note are one
// event of the history.
func (b *Bench) Note(annotator, qid, chunkID, note string) error {
	if len(note) > MaxNoteBytes {
		return fmt.Errorf("a note may hold up to %d bytes, got %d", MaxNoteBytes, len(note))
	}
	if err := b.checkRow(annotator, qid, chunkID, nil); err != nil {
		return err
	}
	return b.inTx(func(tx *sql.Tx) error {
		var before string
		err := tx.QueryRow(`SELECT note FROM gold_judgments WHERE annotator = ? AND qid = ? AND chunk_id = ?`, annotator, qid, chunkID).Scan(&before)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if before == note {
			return nil
		}
		if err := b.writeNote(tx, annotator, qid, chunkID, note); err != nil {
			return err
		}
		return b.record(tx, annotator, qid, chunkID, kindNote, before, note)
	})
}

// labelState is a row's label as an event stores it.
type labelState struct {
	Rel     *int     `json:"rel"`
	Blind   *bool    `json:"blind,omitempty"`
	Seconds *float64 `json:"seconds,omitempty"`
	// BlindSeconds is the part of Seconds spent with the sources hidden.
	BlindSeconds *float64 `json:"blind_seconds,omitempty"`
}

func sameRel(a, b *int) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

func readLabel(tx *sql.Tx, annotator, qid, chunkID string) (labelState, error) {
	var n labelColumns
	err := tx.QueryRow(`SELECT rel, blind, seconds, blind_seconds FROM gold_judgments WHERE annotator = ? AND qid = ? AND chunk_id = ?`,
		annotator, qid, chunkID).Scan(&n.rel, &n.blind, &n.secs, &n.blindSecs)
	if errors.Is(err, sql.ErrNoRows) {
		return labelState{}, nil
	}
	return n.state(), err
}

// labelColumns are the nullable columns rel, blind, seconds and
// blind_seconds of a gold_judgments row as scanned.
type labelColumns struct {
	rel       sql.NullInt64
	blind     sql.NullBool
	secs      sql.NullFloat64
	blindSecs sql.NullFloat64
}

// state is the columns with NULL as nil.
func (n labelColumns) state() labelState {
	var st labelState
	if n.rel.Valid {
		r := int(n.rel.Int64)
		st.Rel = &r
	}
	if n.blind.Valid {
		st.Blind = &n.blind.Bool
	}
	if n.secs.Valid {
		st.Seconds = &n.secs.Float64
	}
	if n.blindSecs.Valid {
		st.BlindSeconds = &n.blindSecs.Float64
	}
	return st
}

func (b *Bench) writeLabel(tx *sql.Tx, annotator, qid, chunkID string, st labelState) error {
	_, err := tx.Exec(`INSERT INTO gold_judgments (annotator, qid, chunk_id, rel, note, at, blind, seconds, blind_seconds) VALUES (?, ?, ?, ?, '', ?, ?, ?, ?)
		ON CONFLICT (annotator, qid, chunk_id) DO UPDATE SET rel = excluded.rel, at = excluded.at, blind = excluded.blind, seconds = excluded.seconds, blind_seconds = excluded.blind_seconds`,
		annotator, qid, chunkID, relValue(st.Rel), b.now(), nullable(st.Blind), nullable(st.Seconds), nullable(st.BlindSeconds))
	if err != nil {
		return err
	}
	return dropEmpty(tx, annotator, qid, chunkID)
}

func (b *Bench) writeNote(tx *sql.Tx, annotator, qid, chunkID, note string) error {
	_, err := tx.Exec(`INSERT INTO gold_judgments (annotator, qid, chunk_id, rel, note, at) VALUES (?, ?, ?, NULL, ?, ?)
		ON CONFLICT (annotator, qid, chunk_id) DO UPDATE SET note = excluded.note, at = excluded.at`,
		annotator, qid, chunkID, note, b.now())
	if err != nil {
		return err
	}
	return dropEmpty(tx, annotator, qid, chunkID)
}

// dropEmpty removes a row left with neither label nor note.
func dropEmpty(tx *sql.Tx, annotator, qid, chunkID string) error {
	_, err := tx.Exec(`DELETE FROM gold_judgments WHERE annotator = ? AND qid = ? AND chunk_id = ? AND rel IS NULL AND note = ''`, annotator, qid, chunkID)
	return err
}

func relValue(rel *int) any {
	if rel == nil {
		return nil
	}
	return *rel
}

// nullable is *p, or SQL NULL for nil.
func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// inTx runs f in one transaction, committed when f returns nil.
func (b *Bench) inTx(f func(*sql.Tx) error) error {
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// checkRow reports an empty annotator, a rel outside 0–2, a qid that was
// never pooled, a chunkID that is not stored and one that is not in qid's
// pool (the last three wrap ErrUnknown): a label or a note is written only on
// a row of the question's pool.
func (b *Bench) checkRow(annotator, qid, chunkID string, rel *int) error {
	if err := CheckAnnotator(annotator); err != nil {
		return err
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
// keep clears the decision. A change is an event of annotator's history.
func (b *Bench) Decide(annotator, qid string, keep *bool) error {
	if err := CheckAnnotator(annotator); err != nil {
		return err
	}
	var n int
	if err := b.db.QueryRow(`SELECT COUNT(*) FROM gold_questions WHERE qid = ?`, qid).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w question %q", ErrUnknown, qid)
	}
	return b.inTx(func(tx *sql.Tx) error {
		var prev sql.NullBool
		err := tx.QueryRow(`SELECT keep FROM gold_decisions WHERE annotator = ? AND qid = ?`, annotator, qid).Scan(&prev)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var before *bool
		if prev.Valid {
			before = &prev.Bool
		}
		if (before == nil && keep == nil) || (before != nil && keep != nil && *before == *keep) {
			return nil
		}
		if err := b.writeDecision(tx, annotator, qid, keep); err != nil {
			return err
		}
		return b.record(tx, annotator, qid, "", kindDecision, before, keep)
	})
}

func (b *Bench) writeDecision(tx *sql.Tx, annotator, qid string, keep *bool) error {
	if keep == nil {
		_, err := tx.Exec(`DELETE FROM gold_decisions WHERE annotator = ? AND qid = ?`, annotator, qid)
		return err
	}
	_, err := tx.Exec(`INSERT OR REPLACE INTO gold_decisions (annotator, qid, keep, at) VALUES (?, ?, ?, ?)`, annotator, qid, *keep, b.now())
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
	rows, err := b.db.Query(`SELECT j.annotator, j.qid, j.chunk_id, j.rel, j.note, j.at, j.blind, j.seconds, j.blind_seconds FROM gold_judgments j
		JOIN gold_questions q ON q.qid = j.qid
		WHERE ? = '' OR j.annotator = ? ORDER BY j.annotator, q.position, j.chunk_id`, annotator, annotator)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Judgment
	for rows.Next() {
		var j Judgment
		var n labelColumns
		if err := rows.Scan(&j.Annotator, &j.QID, &j.ChunkID, &n.rel, &j.Note, &j.At, &n.blind, &n.secs, &n.blindSecs); err != nil {
			return nil, err
		}
		st := n.state()
		j.Rel, j.Blind, j.Seconds, j.BlindSeconds = st.Rel, st.Blind, st.Seconds, st.BlindSeconds
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
	var labelled []Judgment
	for _, j := range rows {
		if j.Rel != nil {
			labelled = append(labelled, j)
		}
	}
	return jsonl.WriteAll(w, labelled)
}

// ImportJudgmentsFile imports a judgments file; see ImportJudgments.
func (b *Bench) ImportJudgmentsFile(path string) (ImportReport, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return ImportReport{}, err
	}
	defer f.Close()
	return b.ImportJudgments(path, f)
}

// ImportReport accounts for an import.
type ImportReport struct {
	Rows       int // judgments stored
	JoinedPool int // of them, rows of a pooled question that were not in its pool and joined it (OriginJudgment)
}

// ImportJudgments reads judgments JSONL and stores every row in one
// transaction, replacing earlier rows of the same (annotator, qid, chunk_id);
// a row judged without being pooled joins the pool with OriginJudgment. The
// optional "blind" (boolean) and "seconds" (a number from 0 to MaxSeconds)
// are kept; a file without them imports as before. A qid that was never
// pooled is an error saying to run `gold pool` first: the pool holds the
// question's text; an annotator name must pass CheckAnnotator. On any bad
// line nothing is stored. name is used in errors.
func (b *Bench) ImportJudgments(name string, r io.Reader) (ImportReport, error) {
	var rep ImportReport
	qids, err := b.idSet(`SELECT qid FROM gold_questions`)
	if err != nil {
		return rep, err
	}
	chunks, err := b.idSet(`SELECT chunk_id FROM chunks`)
	if err != nil {
		return rep, err
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
			Blind     *json.RawMessage `json:"blind"`
			Seconds   *json.RawMessage `json:"seconds"`
			BlindSecs *json.RawMessage `json:"blind_seconds"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			return inputerr.At(name, line, `a JSON object {"qid", "chunk_id", "rel", "annotator"} with string fields: `+err.Error())
		}
		if raw.QID == nil || raw.ChunkID == nil || raw.Rel == nil || raw.Annotator == nil || *raw.Annotator == "" {
			return inputerr.At(name, line, `"qid", "chunk_id", "rel" and a non-empty "annotator"`)
		}
		if err := CheckPerson(*raw.Annotator); err != nil {
			return inputerr.At(name, line, `"annotator" `+err.Error())
		}
		var rel int
		if err := json.Unmarshal(*raw.Rel, &rel); err != nil || rel < 0 || rel > 2 {
			return inputerr.Atf(name, line, `"rel" 0, 1 or 2, got %s`, string(*raw.Rel))
		}
		if !qids[*raw.QID] {
			if len(qids) == 0 {
				return inputerr.Atf(name, line, "a pooled qid, got %q, and no question is pooled in this database: run `linemem gold pool --questions FILE` (with the questions the judgments were made on) first, then import", *raw.QID)
			}
			return inputerr.Atf(name, line, "a pooled qid, got %q: pool that question with `linemem gold pool --questions FILE` first", *raw.QID)
		}
		if !chunks[*raw.ChunkID] {
			return inputerr.Atf(name, line, "a stored chunk_id, got %q", *raw.ChunkID)
		}
		j := Judgment{QID: *raw.QID, ChunkID: *raw.ChunkID, Rel: &rel, Annotator: *raw.Annotator}
		if raw.Note != nil {
			j.Note = *raw.Note
		}
		if raw.Blind != nil && string(*raw.Blind) != "null" {
			var blind bool
			if err := json.Unmarshal(*raw.Blind, &blind); err != nil {
				return inputerr.Atf(name, line, `"blind" true or false, got %s`, string(*raw.Blind))
			}
			j.Blind = &blind
		}
		if raw.Seconds != nil && string(*raw.Seconds) != "null" {
			var secs float64
			if err := json.Unmarshal(*raw.Seconds, &secs); err != nil || secs < 0 || secs > MaxSeconds {
				return inputerr.Atf(name, line, `"seconds" a number from 0 to %d, got %s`, MaxSeconds, string(*raw.Seconds))
			}
			j.Seconds = &secs
		}
		if raw.BlindSecs != nil && string(*raw.BlindSecs) != "null" {
			var secs float64
			if err := json.Unmarshal(*raw.BlindSecs, &secs); err != nil || secs < 0 || j.Seconds == nil || secs > *j.Seconds {
				return inputerr.Atf(name, line, `"blind_seconds" a number from 0 to "seconds" (which must be given), got %s`, string(*raw.BlindSecs))
			}
			j.BlindSeconds = &secs
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
		return rep, err
	}
	err = b.inTx(func(tx *sql.Tx) error {
		for _, j := range rows {
			if _, err := tx.Exec(`INSERT OR REPLACE INTO gold_judgments (annotator, qid, chunk_id, rel, note, at, blind, seconds, blind_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				j.Annotator, j.QID, j.ChunkID, *j.Rel, j.Note, j.At, nullable(j.Blind), nullable(j.Seconds), nullable(j.BlindSeconds)); err != nil {
				return err
			}
			res, err := tx.Exec(`INSERT INTO gold_pool (qid, chunk_id, origin, detail, rank, score)
			SELECT ?, ?, ?, ?, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM gold_pool WHERE qid = ? AND chunk_id = ?)`,
				j.QID, j.ChunkID, OriginJudgment, j.Annotator, j.QID, j.ChunkID)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			rep.JoinedPool += int(n)
		}
		return nil
	})
	if err != nil {
		return ImportReport{}, err
	}
	rep.Rows = len(rows)
	return rep, nil
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
