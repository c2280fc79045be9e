package workbench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

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
	Qrels     trec.Qrels // labelled rows of the retained questions, relevance 0 included
	Retained  []Question // in pooling order
	Dropped   []Dropped  // in pooling order
	Unjudged  int        // pool rows of retained questions without a label (read as relevance 0)
	Groups    []Group    // evidence groups of the retained questions
}

// Export collects annotator's gold.
func (b *Bench) Export(annotator string) (Export, error) {
	ex := Export{Annotator: annotator, Qrels: trec.Qrels{}}
	qs, err := b.Questions()
	if err != nil {
		return ex, err
	}
	labels, err := b.Labels(annotator)
	if err != nil {
		return ex, err
	}
	decisions, err := b.Decisions(annotator)
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
	if ex.Unjudged > 0 {
		fmt.Fprintf(&b, "warning: %d pool rows of retained questions are unlabelled and count as relevance 0\n", ex.Unjudged)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteQuestions writes the retained questions as questions JSONL (spec §11,
// with "answer" where there is one).
func (ex Export) WriteQuestions(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, q := range ex.Retained {
		if err := enc.Encode(q); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Group is the set of pooled chunks that hold one matched evidence message.
type Group struct {
	QID       string   `json:"qid"`
	MessageID string   `json:"message_id"`
	Role      string   `json:"role"`
	ChunkIDs  []string `json:"chunk_ids"` // sorted
	Rel       int      `json:"rel"`       // the highest label among ChunkIDs (0 when none is labelled)
}

// groups builds the evidence groups of every question from the stored
// evidence, with the labels given.
func (b *Bench) groups(labels map[string]map[string]int) (map[string][]Group, error) {
	rows, err := b.db.Query(`SELECT DISTINCT qid, message_id, role FROM gold_evidence
		WHERE message_id != '' ORDER BY qid, message_id, role`)
	if err != nil {
		return nil, err
	}
	type item struct{ qid, mid, role string }
	var items []item
	var mids []string
	for rows.Next() {
		var it item
		if err := rows.Scan(&it.qid, &it.mid, &it.role); err != nil {
			rows.Close()
			return nil, err
		}
		items = append(items, it)
		mids = append(mids, it.mid)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	chunksOf, err := b.st.ChunkIDsOfMessages(mids)
	if err != nil {
		return nil, err
	}
	out := map[string][]Group{}
	index := map[[2]string]int{}
	for _, it := range items {
		cids := slices.Clone(chunksOf[it.mid])
		slices.Sort(cids)
		for _, cid := range cids {
			k := [2]string{it.qid, it.mid}
			i, ok := index[k]
			if !ok {
				i = len(out[it.qid])
				index[k] = i
				out[it.qid] = append(out[it.qid], Group{QID: it.qid, MessageID: it.mid, Role: it.role})
			}
			g := &out[it.qid][i]
			if g.Role != it.role && it.role == "answer" {
				g.Role = it.role
			}
			if len(g.ChunkIDs) == 0 || g.ChunkIDs[len(g.ChunkIDs)-1] != cid {
				g.ChunkIDs = append(g.ChunkIDs, cid)
			}
			g.Rel = max(g.Rel, labels[it.qid][cid])
		}
	}
	return out, nil
}

// WriteGroups writes groups as JSON lines.
func WriteGroups(w io.Writer, groups []Group) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, g := range groups {
		if err := enc.Encode(g); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// GroupRecall is, per question, the share of its relevance-2 groups with at
// least one member among the first k hits of run; questions without a
// relevance-2 group are absent. k larger than a ranking uses all of it.
func GroupRecall(groups []Group, run trec.Run, k int) map[string]float64 {
	total := map[string]int{}
	found := map[string]int{}
	for _, g := range groups {
		if g.Rel != 2 {
			continue
		}
		total[g.QID]++
		hits := run[g.QID]
		top := map[string]bool{}
		for i := 0; i < len(hits) && i < k; i++ {
			top[hits[i].ChunkID] = true
		}
		for _, cid := range g.ChunkIDs {
			if top[cid] {
				found[g.QID]++
				break
			}
		}
	}
	out := make(map[string]float64, len(total))
	for q, n := range total {
		out[q] = float64(found[q]) / float64(n)
	}
	return out
}
