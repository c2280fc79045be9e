package workbench

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Consensus is the annotator name adjudication writes its chosen labels
// under; nobody else may use it. The consensus gold itself is computed
// (Bench.Consensus), never stored whole.
const Consensus = "consensus"

// How a consensus row came about.
const (
	ByAgreement    = "agreed"      // both annotators give it this label now
	ByAdjudication = "adjudicated" // they differ, and an adjudication chose it for this very disagreement
	BySingle       = "single"      // only one annotator labelled it (taken only when asked for)
)

// Reasons an adjudication no longer counts.
const (
	ObsoleteAgreed  = "both annotators now agree"
	ObsoleteChanged = "a label changed since the adjudication"
)

// AdjudicationRow is a row two annotators labelled differently, or that only
// one of them labelled: A and B are their labels (nil: not labelled),
// Consensus the adjudicated label that stands (nil: none yet, or one made
// obsolete by a later change: Obsolete says why).
type AdjudicationRow struct {
	QID, ChunkID string
	A, B         *int
	Consensus    *int
	Obsolete     string
}

// Single reports a row only one of the two annotators labelled.
func (r AdjudicationRow) Single() bool { return r.A == nil || r.B == nil }

// ObsoleteAdjudication is a consensus label that no longer counts.
type ObsoleteAdjudication struct {
	QID, ChunkID string
	Rel          int    // the label adjudication chose
	Reason       string // ObsoleteAgreed or ObsoleteChanged
}

// ConsensusGold is the consensus of two annotators as their labels stand
// now (Bench.Consensus).
type ConsensusGold struct {
	A, B      string
	Labels    map[string]map[string]int // qid → chunk_id → rel
	How       map[string]map[string]string
	Decisions map[string]bool // qid → keep, where both decided alike (or one was adjudicated)
	// Disagreements are the rows both labelled differently, Singles the rows
	// one of them labelled, each in question pooling order, then chunk ID,
	// with the adjudication that stands, if any.
	Disagreements, Singles []AdjudicationRow
	Obsolete               []ObsoleteAdjudication
	Agreed, Adjudicated    int // consensus rows by agreement and by adjudication
	SinglesTaken           int // consensus rows taken from one annotator (withSingles)
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

// pairKey orders a pair as stored: the smaller name first, with its label.
func pairKey(a, bName string, ra, rb *int) (string, string, *int, *int) {
	if a > bName {
		return bName, a, rb, ra
	}
	return a, bName, ra, rb
}

// adjudicated is what an adjudication recorded: the pair's labels then.
type adjudicated struct{ a, b *int }

func (b *Bench) adjudications(a, bName string) (map[[2]string]adjudicated, error) {
	pa, pb, _, _ := pairKey(a, bName, nil, nil)
	rows, err := b.db.Query(`SELECT qid, chunk_id, a_rel, b_rel FROM gold_adjudications WHERE a = ? AND b = ?`, pa, pb)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[2]string]adjudicated{}
	for rows.Next() {
		var qid, cid string
		var ra, rb sql.NullInt64
		if err := rows.Scan(&qid, &cid, &ra, &rb); err != nil {
			return nil, err
		}
		var rec adjudicated
		if ra.Valid {
			v := int(ra.Int64)
			rec.a = &v
		}
		if rb.Valid {
			v := int(rb.Int64)
			rec.b = &v
		}
		if pa != a {
			rec.a, rec.b = rec.b, rec.a
		}
		out[[2]string{qid, cid}] = rec
	}
	return out, rows.Err()
}

// Consensus computes the consensus of annotators a and bName from their
// labels as they stand now:
//
//   - a row both label alike is in it with that label (ByAgreement);
//   - a row they label differently, or only one labels, is in it with the
//     consensus label adjudication chose, if that adjudication was made on
//     the labels they have now (ByAdjudication); an adjudication of other
//     labels (ObsoleteChanged) or of a row they now agree on
//     (ObsoleteAgreed) is listed in Obsolete and does not count;
//   - with withSingles, a row only one labels and nobody adjudicated is in
//     it with that one label (BySingle).
//
// A consensus label stored before adjudications were recorded counts while
// the two still differ. Keep/drop: the consensus annotator's own decision,
// else the one a and bName share. The two annotators' labels are never
// changed, so their κ stays what it was.
func (b *Bench) Consensus(a, bName string, withSingles bool) (ConsensusGold, error) {
	g := ConsensusGold{A: a, B: bName, Labels: map[string]map[string]int{}, How: map[string]map[string]string{}, Decisions: map[string]bool{}}
	if err := b.checkJudged(a, bName); err != nil {
		return g, err
	}
	la, err := b.Labels(a)
	if err != nil {
		return g, err
	}
	lb, err := b.Labels(bName)
	if err != nil {
		return g, err
	}
	lc, err := b.Labels(Consensus)
	if err != nil {
		return g, err
	}
	recs, err := b.adjudications(a, bName)
	if err != nil {
		return g, err
	}
	qs, err := b.Questions()
	if err != nil {
		return g, err
	}
	set := func(qid, cid string, rel int, how string) {
		if g.Labels[qid] == nil {
			g.Labels[qid], g.How[qid] = map[string]int{}, map[string]string{}
		}
		g.Labels[qid][cid], g.How[qid][cid] = rel, how
	}
	for _, q := range qs {
		for _, cid := range unionKeys(la[q.QID], lb[q.QID], lc[q.QID]) {
			ra, okA := la[q.QID][cid]
			rb, okB := lb[q.QID][cid]
			rc, okC := lc[q.QID][cid]
			rec, recorded := recs[[2]string{q.QID, cid}]
			switch {
			case !okA && !okB:
				if okC && recorded {
					g.Obsolete = append(g.Obsolete, ObsoleteAdjudication{q.QID, cid, rc, ObsoleteChanged})
				}
				continue
			case okA && okB && ra == rb:
				set(q.QID, cid, ra, ByAgreement)
				g.Agreed++
				if okC && (recorded || rc != ra) {
					g.Obsolete = append(g.Obsolete, ObsoleteAdjudication{q.QID, cid, rc, ObsoleteAgreed})
				}
				continue
			}
			row := AdjudicationRow{QID: q.QID, ChunkID: cid}
			if okA {
				row.A = &ra
			}
			if okB {
				row.B = &rb
			}
			switch {
			case okC && recorded && !(sameRel(rec.a, row.A) && sameRel(rec.b, row.B)):
				row.Obsolete = ObsoleteChanged
				g.Obsolete = append(g.Obsolete, ObsoleteAdjudication{q.QID, cid, rc, ObsoleteChanged})
			case okC:
				row.Consensus = &rc
				set(q.QID, cid, rc, ByAdjudication)
				g.Adjudicated++
			}
			if row.Single() {
				if row.Consensus == nil && withSingles {
					set(q.QID, cid, *cmpOr(row.A, row.B), BySingle)
					g.SinglesTaken++
				}
				g.Singles = append(g.Singles, row)
			} else {
				g.Disagreements = append(g.Disagreements, row)
			}
		}
	}
	da, err := b.Decisions(a)
	if err != nil {
		return g, err
	}
	db, err := b.Decisions(bName)
	if err != nil {
		return g, err
	}
	dc, err := b.Decisions(Consensus)
	if err != nil {
		return g, err
	}
	for qid, keep := range da {
		if other, ok := db[qid]; ok && other == keep {
			g.Decisions[qid] = keep
		}
	}
	for qid, keep := range dc {
		g.Decisions[qid] = keep
	}
	return g, nil
}

// cmpOr is the first of ps that is not nil.
func cmpOr(ps ...*int) *int {
	for _, p := range ps {
		if p != nil {
			return p
		}
	}
	return nil
}

// unionKeys is the sorted union of the keys of ms.
func unionKeys(ms ...map[string]int) []string {
	seen := map[string]bool{}
	for _, m := range ms {
		for k := range m {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Adjudication lists the rows where annotators a and b differ — the
// disagreements, then the rows only one of them labelled — each in question
// pooling order, then chunk ID (Consensus).
func (b *Bench) Adjudication(a, bName string) ([]AdjudicationRow, error) {
	g, err := b.Consensus(a, bName, false)
	if err != nil {
		return nil, err
	}
	return append(g.Disagreements, g.Singles...), nil
}

// Adjudicate sets the Consensus label of (qid, chunkID) to rel (nil clears
// it) and records the labels a and bName have on the row now: the
// adjudication counts for as long as they keep them (Consensus). a's and
// b's own labels are never changed: their κ stays what it was.
func (b *Bench) Adjudicate(a, bName, qid, chunkID string, rel *int) error {
	if err := b.checkJudged(a, bName); err != nil {
		return err
	}
	if err := b.checkRow(Consensus, qid, chunkID, rel); err != nil {
		return err
	}
	if err := b.Label(Consensus, qid, chunkID, rel); err != nil {
		return err
	}
	ra, err := b.labelOf(a, qid, chunkID)
	if err != nil {
		return err
	}
	rb, err := b.labelOf(bName, qid, chunkID)
	if err != nil {
		return err
	}
	pa, pb, ra, rb := pairKey(a, bName, ra, rb)
	if rel == nil {
		_, err = b.db.Exec(`DELETE FROM gold_adjudications WHERE a = ? AND b = ? AND qid = ? AND chunk_id = ?`, pa, pb, qid, chunkID)
		return err
	}
	_, err = b.db.Exec(`INSERT OR REPLACE INTO gold_adjudications (a, b, qid, chunk_id, a_rel, b_rel, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		pa, pb, qid, chunkID, relValue(ra), relValue(rb), b.now())
	return err
}

// labelOf is annotator's label of (qid, chunkID), nil when there is none.
func (b *Bench) labelOf(annotator, qid, chunkID string) (*int, error) {
	var rel sql.NullInt64
	err := b.db.QueryRow(`SELECT rel FROM gold_judgments WHERE annotator = ? AND qid = ? AND chunk_id = ?`, annotator, qid, chunkID).Scan(&rel)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil || !rel.Valid {
		return nil, err
	}
	v := int(rel.Int64)
	return &v, nil
}
