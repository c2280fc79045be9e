package workbench

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Kinds of history events.
const (
	kindLabel    = "label"
	kindNote     = "note"
	kindDecision = "decision"
)

// States of a history event.
const (
	StateDone    = "done"    // in effect
	StateUndone  = "undone"  // taken back; Redo applies it again
	StateDropped = "dropped" // taken back and then replaced by a later change
)

// Event is one change of an annotator's judging: a label, a note or a
// keep/drop decision, with the value before and after it (JSON: a label is
// {"rel", "blind", "seconds"} or null, a note a string, a decision true,
// false or null). ChunkID is "" for a decision.
type Event struct {
	ID        int64
	Annotator string
	QID       string
	ChunkID   string
	Kind      string // "label", "note" or "decision"
	Before    string
	After     string
	At        string // RFC 3339
	State     string // StateDone, StateUndone or StateDropped
}

// record stores a change as annotator's newest event. Events taken back
// (undone) become dropped: a new change ends the redo chain. A note edited
// again on the same row as the newest event updates that event instead, so
// typing a note is one step of the history.
func (b *Bench) record(tx *sql.Tx, annotator, qid, chunkID, kind string, before, after any) error {
	bj, err := json.Marshal(before)
	if err != nil {
		return err
	}
	aj, err := json.Marshal(after)
	if err != nil {
		return err
	}
	res, err := tx.Exec(`UPDATE gold_events SET state = ? WHERE annotator = ? AND state = ?`, StateDropped, annotator, StateUndone)
	if err != nil {
		return err
	}
	undone, _ := res.RowsAffected()
	if kind == kindNote && undone == 0 {
		var id int64
		var lastKind, lastQID, lastChunk string
		err := tx.QueryRow(`SELECT event_id, kind, qid, chunk_id FROM gold_events WHERE annotator = ? AND state = ? ORDER BY event_id DESC LIMIT 1`,
			annotator, StateDone).Scan(&id, &lastKind, &lastQID, &lastChunk)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && lastKind == kindNote && lastQID == qid && lastChunk == chunkID {
			_, err := tx.Exec(`UPDATE gold_events SET after = ?, at = ? WHERE event_id = ?`, string(aj), b.now(), id)
			return err
		}
	}
	_, err = tx.Exec(`INSERT INTO gold_events (annotator, qid, chunk_id, kind, before, after, at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		annotator, qid, chunkID, kind, string(bj), string(aj), b.now(), StateDone)
	return err
}

// Undo takes back annotator's newest event in effect, restoring the value
// before it; ok is false when there is none. The history survives restarts:
// it lives in the database.
func (b *Bench) Undo(annotator string) (ev Event, ok bool, err error) {
	return b.step(annotator, `SELECT event_id, annotator, qid, chunk_id, kind, before, after, at, state FROM gold_events
		WHERE annotator = ? AND state = 'done' ORDER BY event_id DESC LIMIT 1`, StateUndone, func(e Event) string { return e.Before })
}

// Redo applies again annotator's oldest undone event (the one Undo took back
// last); ok is false when there is none.
func (b *Bench) Redo(annotator string) (ev Event, ok bool, err error) {
	return b.step(annotator, `SELECT event_id, annotator, qid, chunk_id, kind, before, after, at, state FROM gold_events
		WHERE annotator = ? AND state = 'undone' ORDER BY event_id ASC LIMIT 1`, StateDone, func(e Event) string { return e.After })
}

func (b *Bench) step(annotator, query, state string, value func(Event) string) (Event, bool, error) {
	var ev Event
	found := false
	err := b.inTx(func(tx *sql.Tx) error {
		err := tx.QueryRow(query, annotator).Scan(&ev.ID, &ev.Annotator, &ev.QID, &ev.ChunkID, &ev.Kind, &ev.Before, &ev.After, &ev.At, &ev.State)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if err := b.apply(tx, ev, value(ev)); err != nil {
			return err
		}
		ev.State = state
		_, err = tx.Exec(`UPDATE gold_events SET state = ? WHERE event_id = ?`, state, ev.ID)
		return err
	})
	return ev, found, err
}

// apply writes value (an event's JSON before or after) to the row or
// question the event is about.
func (b *Bench) apply(tx *sql.Tx, ev Event, value string) error {
	switch ev.Kind {
	case kindLabel:
		var st *labelState
		if err := json.Unmarshal([]byte(value), &st); err != nil {
			return fmt.Errorf("event %d: %w", ev.ID, err)
		}
		if st == nil {
			st = &labelState{}
		}
		return b.writeLabel(tx, ev.Annotator, ev.QID, ev.ChunkID, *st)
	case kindNote:
		var note string
		if err := json.Unmarshal([]byte(value), &note); err != nil {
			return fmt.Errorf("event %d: %w", ev.ID, err)
		}
		return b.writeNote(tx, ev.Annotator, ev.QID, ev.ChunkID, note)
	case kindDecision:
		var keep *bool
		if err := json.Unmarshal([]byte(value), &keep); err != nil {
			return fmt.Errorf("event %d: %w", ev.ID, err)
		}
		return b.writeDecision(tx, ev.Annotator, ev.QID, keep)
	}
	return fmt.Errorf("event %d: unknown kind %q", ev.ID, ev.Kind)
}

// History lists annotator's events, newest first, at most limit (≤ 0: all).
func (b *Bench) History(annotator string, limit int) ([]Event, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := b.db.Query(`SELECT event_id, annotator, qid, chunk_id, kind, before, after, at, state FROM gold_events
		WHERE annotator = ? ORDER BY event_id DESC LIMIT ?`, annotator, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.Annotator, &ev.QID, &ev.ChunkID, &ev.Kind, &ev.Before, &ev.After, &ev.At, &ev.State); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}
