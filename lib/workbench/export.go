package workbench

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/trec"
)

// Reasons a question is not retained.
const (
	DropByAnnotator = "dropped by the annotator"
	DropUnjudged    = "no row labelled"
	DropNoPrimary   = "no relevance-2 chunk"
)

// Dropped is a question left out of an export.
type Dropped struct {
	QID    string
	Reason string
}

// Export is the gold of one annotator.
type Export struct {
	Annotator string
	Qrels     trec.Qrels     // labelled rows of the retained questions, relevance 0 included
	Retained  []Question     // in pooling order
	Dropped   []Dropped      // in pooling order
	Unjudged  int            // pool rows of retained questions without a label (read as relevance 0)
	Groups    []Group        // evidence groups of the retained questions
	How       HowJudged      // how the qrels rows were labelled
	Of        *ConsensusGold // the consensus computed, for annotator Consensus
}

// HowJudged counts how an export's labels were given: blind (sources
// hidden), revealed, or unrecorded (labels given before this was recorded,
// or imported without it), and the seconds spent on the rows that recorded
// them. Of the labels that also recorded their blind seconds (Split), the
// time is divided into BlindSeconds (sources hidden) and RevealedSeconds =
// Σ (seconds − blind_seconds).
type HowJudged struct {
	Blind, Revealed, Unrecorded   int
	Timed                         int     // labels with seconds
	Seconds                       float64 // their sum
	Median                        float64 // their median (mean of the middle two for an even count); 0 when none
	Split                         int     // labels with seconds and blind seconds
	BlindSeconds, RevealedSeconds float64 // their time with the sources hidden and shown
	ByRel                         [3]SplitTime
	secs                          []float64 // collected before Median is taken
}

// SplitTime is the time of the labels of one relevance grade that recorded
// their blind seconds: Labels of them, BlindSeconds = Σ blind_seconds and
// RevealedSeconds = Σ (seconds − blind_seconds).
type SplitTime struct {
	Labels                        int
	BlindSeconds, RevealedSeconds float64
}

func (h *HowJudged) add(j Judgment) {
	switch {
	case j.Blind == nil:
		h.Unrecorded++
	case *j.Blind:
		h.Blind++
	default:
		h.Revealed++
	}
	if j.Seconds != nil {
		h.Timed++
		h.Seconds += *j.Seconds
		h.secs = append(h.secs, *j.Seconds)
		if j.BlindSeconds != nil {
			blind, revealed := *j.BlindSeconds, *j.Seconds-*j.BlindSeconds
			h.Split++
			h.BlindSeconds += blind
			h.RevealedSeconds += revealed
			if j.Rel != nil && *j.Rel >= 0 && *j.Rel < len(h.ByRel) {
				g := &h.ByRel[*j.Rel]
				g.Labels++
				g.BlindSeconds += blind
				g.RevealedSeconds += revealed
			}
		}
	}
}

func (h *HowJudged) finish() {
	sort.Float64s(h.secs)
	if n := len(h.secs); n > 0 {
		h.Median = (h.secs[(n-1)/2] + h.secs[n/2]) / 2
	}
	h.secs = nil
}

// Export collects annotator's gold. The consensus is computed from two
// annotators: ExportConsensus.
func (b *Bench) Export(annotator string) (Export, error) {
	if annotator == Consensus {
		return Export{Annotator: annotator}, fmt.Errorf("%q is computed from two annotators' labels: name the two (ExportConsensus)", Consensus)
	}
	labels, err := b.Labels(annotator)
	if err != nil {
		return Export{}, err
	}
	decisions, err := b.Decisions(annotator)
	if err != nil {
		return Export{}, err
	}
	ex, err := b.export(annotator, labels, decisions)
	if err != nil {
		return ex, err
	}
	js, err := b.Judgments(annotator)
	if err != nil {
		return ex, err
	}
	for _, j := range js {
		if _, ok := ex.Qrels[j.QID][j.ChunkID]; ok && j.Rel != nil {
			ex.How.add(j)
		}
	}
	ex.How.finish()
	return ex, nil
}

// ExportConsensus collects the consensus gold of a and bName as their labels
// stand now (Bench.Consensus; withSingles takes the rows only one of them
// labelled). Its report counts the rows by how they came about and lists
// the adjudications that no longer count.
func (b *Bench) ExportConsensus(a, bName string, withSingles bool) (Export, error) {
	g, err := b.Consensus(a, bName, withSingles)
	if err != nil {
		return Export{Annotator: Consensus}, err
	}
	ex, err := b.export(Consensus, g.Labels, g.Decisions)
	if err != nil {
		return ex, err
	}
	ex.Of = &g
	return ex, nil
}

// export collects the gold of labels and decisions under name.
func (b *Bench) export(name string, labels map[string]map[string]int, decisions map[string]bool) (Export, error) {
	ex := Export{Annotator: name, Qrels: trec.Qrels{}}
	qs, err := b.Questions()
	if err != nil {
		return ex, err
	}
	pool, err := b.poolPairs()
	if err != nil {
		return ex, err
	}
	groups, err := b.groups(labels)
	if err != nil {
		return ex, err
	}
	for _, q := range qs {
		rows := labels[q.QID]
		primary := false
		for _, rel := range rows {
			primary = primary || rel == 2
		}
		switch keep, decided := decisions[q.QID]; {
		case decided && !keep:
			ex.Dropped = append(ex.Dropped, Dropped{q.QID, DropByAnnotator})
			continue
		case len(rows) == 0:
			ex.Dropped = append(ex.Dropped, Dropped{q.QID, DropUnjudged})
			continue
		case !primary:
			ex.Dropped = append(ex.Dropped, Dropped{q.QID, DropNoPrimary})
			continue
		}
		ex.Retained = append(ex.Retained, q)
		ex.Qrels[q.QID] = rows
		for _, cid := range pool[q.QID] {
			if _, ok := rows[cid]; !ok {
				ex.Unjudged++
			}
		}
		ex.Groups = append(ex.Groups, groups[q.QID]...)
	}
	return ex, nil
}

// WriteReport prints what the export kept and why the rest was dropped.
func (ex Export) WriteReport(w io.Writer) error {
	var b strings.Builder
	rows := 0
	for _, r := range ex.Qrels {
		rows += len(r)
	}
	fmt.Fprintf(&b, "annotator %s: %d questions retained (%d qrels rows), %d dropped\n", ex.Annotator, len(ex.Retained), rows, len(ex.Dropped))
	counts := map[string]int{}
	for _, d := range ex.Dropped {
		counts[d.Reason]++
	}
	for _, reason := range []string{DropByAnnotator, DropUnjudged, DropNoPrimary} {
		if counts[reason] > 0 {
			fmt.Fprintf(&b, "  %s: %d\n", reason, counts[reason])
		}
	}
	for _, d := range ex.Dropped {
		fmt.Fprintf(&b, "dropped %s: %s\n", d.QID, d.Reason)
	}
	if g := ex.Of; g != nil {
		fmt.Fprintf(&b, "consensus of %s and %s: %d rows agreed, %d adjudicated", g.A, g.B, g.Agreed, g.Adjudicated)
		if g.SinglesTaken > 0 {
			fmt.Fprintf(&b, ", %d taken from the one annotator who labelled them", g.SinglesTaken)
		}
		pending := 0
		for _, r := range g.Disagreements {
			if r.Consensus == nil {
				pending++
			}
		}
		fmt.Fprintf(&b, "; %d disagreements not adjudicated, %d rows labelled by one annotator only\n", pending, len(g.Singles))
		for _, o := range g.Obsolete {
			fmt.Fprintf(&b, "obsolete adjudication %s %s (chose %d): %s\n", o.QID, o.ChunkID, o.Rel, o.Reason)
		}
	}
	if h := ex.How; ex.Of == nil {
		fmt.Fprintf(&b, "labels: %d blind, %d with sources revealed, %d unrecorded", h.Blind, h.Revealed, h.Unrecorded)
		if h.Timed > 0 {
			fmt.Fprintf(&b, "; %d timed: %.0f s in all, median %.1f s a row", h.Timed, h.Seconds, h.Median)
		}
		if h.Split > 0 {
			fmt.Fprintf(&b, "; of %d labels: %.0f s read blind, %.0f s with sources revealed", h.Split, h.BlindSeconds, h.RevealedSeconds)
			for rel, g := range h.ByRel {
				if g.Labels > 0 {
					fmt.Fprintf(&b, "; label %d: %d labels, %.1f s blind and %.1f s revealed a label", rel, g.Labels, g.BlindSeconds/float64(g.Labels), g.RevealedSeconds/float64(g.Labels))
				}
			}
		}
		b.WriteString("\n")
	}
	if ex.Unjudged > 0 {
		fmt.Fprintf(&b, "warning: %d pool rows of retained questions are unlabelled and count as relevance 0\n", ex.Unjudged)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteQuestions writes the retained questions as questions JSONL (spec §11,
// with "answer" where there is one).
func (ex Export) WriteQuestions(w io.Writer) error {
	return jsonl.WriteAll(w, ex.Retained)
}

// Group is one evidence group: the relevance-2 chunks that hold the same
// answer evidence message (gold.Groups).
type Group = gold.Group

// groups builds the evidence groups of every question from the stored
// evidence and the labels given (gold.Groups, with the labels as the
// relevance): each matched evidence message is an item holding every stored
// chunk that contains it.
func (b *Bench) groups(labels map[string]map[string]int) (map[string][]Group, error) {
	rows, err := b.db.Query(`SELECT DISTINCT qid, message_id, role FROM gold_evidence
		WHERE message_id != '' ORDER BY qid, message_id, role`)
	if err != nil {
		return nil, err
	}
	var items []gold.ItemResult
	var mids []string
	for rows.Next() {
		var qid, mid, role string
		if err := rows.Scan(&qid, &mid, &role); err != nil {
			rows.Close()
			return nil, err
		}
		items = append(items, gold.ItemResult{QID: qid, Item: gold.Item{Role: role}, MessageID: mid})
		mids = append(mids, mid)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	chunksOf, err := b.st.ChunkIDsOfMessages(mids)
	if err != nil {
		return nil, err
	}
	for i := range items {
		items[i].ChunkIDs = chunksOf[items[i].MessageID]
	}
	return gold.Groups(items, labels), nil
}

// WriteGroups writes groups as JSON lines.
func WriteGroups(w io.Writer, groups []Group) error {
	return jsonl.WriteAll(w, groups)
}

// GroupRecall is, per question, gold.GroupRecall@k of run over its evidence
// groups: the share of the groups with at least one member among the first k
// hits; questions without a group are absent. k larger than a ranking uses
// all of it.
func GroupRecall(groups []Group, run trec.Run, k int) map[string]float64 {
	byQID := map[string][]Group{}
	for _, g := range groups {
		byQID[g.QID] = append(byQID[g.QID], g)
	}
	out := make(map[string]float64, len(byQID))
	for q, gs := range byQID {
		out[q] = gold.GroupRecall(gs, run[q], k)
	}
	return out
}
