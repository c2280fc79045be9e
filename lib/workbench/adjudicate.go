package workbench

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Consensus is the annotator that adjudication writes: the labels two
// annotators agreed on, and the one chosen for each row where they differ.
const Consensus = "consensus"

// AdjudicationRow is a row two annotators labelled differently, or that only
// one of them labelled: A and B are their labels (nil: not labelled),
// Consensus the label adjudication chose so far (nil: none yet).
type AdjudicationRow struct {
	QID, ChunkID string
	A, B         *int
	Consensus    *int
}

func checkPair(a, b string) error {
	switch {
	case a == "" || b == "":
		return errors.New("adjudication needs two annotator names")
	case a == b:
		return fmt.Errorf("annotator %q twice: adjudication compares two different annotators", a)
	case a == Consensus || b == Consensus:
		return fmt.Errorf("%q is the annotator adjudication writes; compare two others", Consensus)
	}
	return nil
}

// checkJudged is checkPair, and then that a and bName each have a label,
// note or keep/drop stored (a mistyped name is not an annotator who judged
// nothing).
func (b *Bench) checkJudged(a, bName string) error {
	if err := checkPair(a, bName); err != nil {
		return err
	}
	all, err := b.Annotators()
	if err != nil {
		return err
	}
	for _, name := range []string{a, bName} {
		if !slices.Contains(all, name) {
			return fmt.Errorf("annotator %q has judged nothing here; annotators: %s", name, strings.Join(all, ", "))
		}
	}
	return nil
}

// Adjudication lists the rows where annotators a and b differ, in question
// pooling order, then chunk ID.
func (b *Bench) Adjudication(a, bName string) ([]AdjudicationRow, error) {
	if err := b.checkJudged(a, bName); err != nil {
		return nil, err
	}
	la, err := b.Labels(a)
	if err != nil {
		return nil, err
	}
	lb, err := b.Labels(bName)
	if err != nil {
		return nil, err
	}
	lc, err := b.Labels(Consensus)
	if err != nil {
		return nil, err
	}
	qs, err := b.Questions()
	if err != nil {
		return nil, err
	}
	var out []AdjudicationRow
	for _, q := range qs {
		ids := map[string]bool{}
		for cid := range la[q.QID] {
			ids[cid] = true
		}
		for cid := range lb[q.QID] {
			ids[cid] = true
		}
		sorted := make([]string, 0, len(ids))
		for cid := range ids {
			sorted = append(sorted, cid)
		}
		sort.Strings(sorted)
		for _, cid := range sorted {
			ra, okA := la[q.QID][cid]
			rb, okB := lb[q.QID][cid]
			if okA && okB && ra == rb {
				continue
			}
			row := AdjudicationRow{QID: q.QID, ChunkID: cid}
			if okA {
				row.A = &ra
			}
			if okB {
				row.B = &rb
			}
			if rc, ok := lc[q.QID][cid]; ok {
				row.Consensus = &rc
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// Adjudicate sets the Consensus label of (qid, chunkID) to rel (nil clears
// it). First, every row a and b labelled alike and every keep/drop they
// decided alike is copied into Consensus where Consensus has none yet, so
// that Consensus holds the whole agreed gold and can be exported as anyone's.
// a's and b's own labels are never changed: their κ stays what it was.
func (b *Bench) Adjudicate(a, bName, qid, chunkID string, rel *int) error {
	if err := b.checkJudged(a, bName); err != nil {
		return err
	}
	if err := b.checkRow(Consensus, qid, chunkID, rel); err != nil {
		return err
	}
	err := b.inTx(func(tx *sql.Tx) error {
		at := b.now()
		if _, err := tx.Exec(`INSERT OR IGNORE INTO gold_judgments (annotator, qid, chunk_id, rel, note, at)
			SELECT ?, x.qid, x.chunk_id, x.rel, '', ? FROM gold_judgments x JOIN gold_judgments y
			ON y.qid = x.qid AND y.chunk_id = x.chunk_id AND y.annotator = ? AND y.rel = x.rel
			WHERE x.annotator = ? AND x.rel IS NOT NULL`, Consensus, at, bName, a); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT OR IGNORE INTO gold_decisions (annotator, qid, keep, at)
			SELECT ?, x.qid, x.keep, ? FROM gold_decisions x JOIN gold_decisions y
			ON y.qid = x.qid AND y.annotator = ? AND y.keep = x.keep WHERE x.annotator = ?`, Consensus, at, bName, a)
		return err
	})
	if err != nil {
		return err
	}
	return b.Label(Consensus, qid, chunkID, rel)
}
