package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// evidenceGroupsArtefact scores retrieval over evidence groups.
var evidenceGroupsArtefact = tableArtefact(EvidenceGroupsSlug, NeedsSingles|NeedsSweep|NeedsMessages|NeedsEvidence, false, evidenceGroupsTable)

// evidenceGroupsTable lays beyond.CompareEvidenceGroups out as
// EvidenceGroupsSlug: every single retriever and the selected hybrid by
// group-level recall beside chunk-level recall at the selection metric's
// cutoff.
func evidenceGroupsTable(s *Study) (report.Table, error) {
	_, rep, err := s.ResolvedGold()
	if err != nil {
		return report.Table{}, err
	}
	g, err := beyond.CompareEvidenceGroups(s.Outcome, gold.Groups(rep.Items, s.Qrels))
	if err != nil {
		return report.Table{}, err
	}
	label := metrics.Label(g.Metric)
	hybrid := g.Methods[len(g.Methods)-1]
	t := report.Table{Slug: EvidenceGroupsSlug, Caption: label + " over evidence groups beside chunk-level " + label,
		Columns: []string{"Retriever", "Chunk " + label + " (95% CI)", "Rank", "Group " + label + " (95% CI)", "Rank", "ΔGroup " + label + " vs hybrid (95% CI)", "Holm p"},
		// Interval columns fit a one-column page only with the metric name
		// and the selected hybrid short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: hybrid, Short: "H"}},
		Notes: []string{
			fmt.Sprintf("A group is a connected set of primary-gold chunks holding the same answer evidence message (overlapping windows, paper §9): %d primary-gold chunks form %d groups over %d questions, %d of them with more than one chunk. Group %s: the share of a question's groups with at least one chunk in the top %d.", g.GroupChunks, g.Groups, g.Questions, g.MultiChunk, label, g.K),
			"Ranks: by mean, 1 = best, ties in row order. Δ: paired difference from the selected hybrid at group level; " + bootstrapWords(s) + fmt.Sprintf(". Holm p: the two-sided paired bootstrap p-value, Holm-adjusted across the %s comparisons.", countWord(len(g.Diffs))),
		}}
	for i, name := range g.Methods {
		d, h := "–", "–"
		if i < len(g.Diffs) {
			d, _, h = dCell(g.Diffs[i])
		}
		t.Rows = append(t.Rows, []string{name, ivCell(g.Chunk[i]), strconv.Itoa(g.ChunkRank[i]), ivCell(g.Group[i]), strconv.Itoa(g.GroupRank[i]), d, h})
	}
	return t, nil
}

// countWord spells a small count as the tables' notes do ("five"), and a
// larger one in digits.
func countWord(n int) string {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	if n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}
