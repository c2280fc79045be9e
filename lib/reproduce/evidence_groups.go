package reproduce

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// evidenceGroupsArtefact scores retrieval over evidence groups.
var evidenceGroupsArtefact = tableArtefact(EvidenceGroupsSlug, NeedsSingles|NeedsSweep|NeedsMessages|NeedsEvidence, false, evidenceGroupsTable)

// evidenceGroupsTable scores every single retriever and the selected hybrid
// by group-level Recall@5 beside chunk-level Recall@5 (EvidenceGroupsSlug).
func evidenceGroupsTable(s *Study) (report.Table, error) {
	ev, _, err := s.Evidence()
	if err != nil {
		return report.Table{}, err
	}
	msgs, err := s.Messages()
	if err != nil {
		return report.Table{}, err
	}
	_, rep := gold.Resolve(ev, msgs, s.Chunks)
	groups := gold.Groups(rep.Items, s.Qrels)
	singles, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	best, _, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	evs := append(append([]*experiment.Evaluation(nil), singles...), best)
	qids := best.Result.QIDs
	ix := s.Setup.Indices(len(qids))
	level := s.Protocol.Level
	chunkR, groupR := make([][]float64, len(evs)), make([][]float64, len(evs))
	for i, e := range evs {
		chunkR[i] = e.Result.Scores(metrics.Recall5)
		groupR[i] = beyond.GroupScores(groups, e.Run, qids, 5)
	}
	var diffs []*beyond.Diff
	for i := range evs[:len(evs)-1] {
		d := beyond.PairedDiff(ix, groupR[i], groupR[len(evs)-1], level)
		diffs = append(diffs, &d)
	}
	beyond.HolmAll(diffs)
	rank := func(x [][]float64) []int {
		order := allPositions(len(x))
		slices.SortStableFunc(order, func(a, b int) int {
			ma, mb := meanOf(x[a]), meanOf(x[b])
			switch {
			case ma > mb:
				return -1
			case ma < mb:
				return 1
			}
			return 0
		})
		r := make([]int, len(x))
		for pos, i := range order {
			r[i] = pos + 1
		}
		return r
	}
	rc, rg := rank(chunkR), rank(groupR)
	nGroups, nChunks, multi := 0, 0, 0
	for _, q := range qids {
		nGroups += len(groups[q])
		for _, g := range groups[q] {
			nChunks += len(g.ChunkIDs)
			if len(g.ChunkIDs) > 1 {
				multi++
			}
		}
	}
	t := report.Table{Slug: EvidenceGroupsSlug, Caption: "Recall@5 over evidence groups beside chunk-level Recall@5",
		Columns: []string{"Retriever", "Chunk Recall@5 (95% CI)", "Rank", "Group Recall@5 (95% CI)", "Rank", "ΔGroup Recall@5 vs hybrid (95% CI)", "Holm p"},
		// Interval columns fit a one-column page only with the metric name
		// and the selected hybrid short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: best.Name, Short: "H"}},
		Notes: []string{
			fmt.Sprintf("A group is a connected set of primary-gold chunks holding the same answer evidence message (overlapping windows, paper §9): %d primary-gold chunks form %d groups over %d questions, %d of them with more than one chunk. Group Recall@5: the share of a question's groups with at least one chunk in the top 5.", nChunks, nGroups, len(qids), multi),
			"Ranks: by mean, 1 = best, ties in row order. Δ: paired difference from the selected hybrid at group level; " + bootstrapWords(s) + ". Holm p: the two-sided paired bootstrap p-value, Holm-adjusted across the five comparisons.",
		}}
	for i, e := range evs {
		name := e.Name
		d, h := "–", "–"
		if i < len(diffs) {
			d, _, h = dCell(diffs[i])
		}
		t.Rows = append(t.Rows, []string{name, ivCell(meanInterval(ix, chunkR[i], s.Protocol.Level)), strconv.Itoa(rc[i]), ivCell(meanInterval(ix, groupR[i], s.Protocol.Level)), strconv.Itoa(rg[i]), d, h})
	}
	return t, nil
}
