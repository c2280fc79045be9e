package reproduce

import (
	"strconv"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/report"
)

// ceilingArtefact is the candidate-ceiling table of paper §5.3.
var ceilingArtefact = tableArtefact(CeilingBaseName, NeedsSweep, true, ceilingTable)

// ceilingTable reports Recall@200 of each component and of the oracle union of
// their top-200 lists, for the summary pair and the selected pair (paper §5.3).
// It has no number in the paper; its files are named CeilingBaseName.*.
func ceilingTable(s *Study) (report.Table, error) {
	_, selCfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: CeilingBaseName, Caption: "Candidate ceiling: macro Recall@200 over primary gold",
		Columns: []string{"Pairing", "Question type", "Questions", "BM25", "Vector", "Oracle union"},
		Notes:   []string{"Gold absent from both top-200 lists cannot be recovered by reranking the hybrid's candidates."}}
	pairings := []string{SummaryPairing}
	if selCfg.Pairing != SummaryPairing {
		pairings = append(pairings, selCfg.Pairing)
	}
	for _, label := range pairings {
		sparse, vec, err := s.Outcome.Components(label)
		if err != nil {
			return report.Table{}, err
		}
		rows, err := analysis.CandidateCeiling(s.Questions, s.Qrels, sparse.Run, vec.Run, s.Protocol.RunDepth)
		if err != nil {
			return report.Table{}, err
		}
		for _, r := range rows {
			t.Rows = append(t.Rows, []string{label, r.Type, strconv.Itoa(r.Questions), report.F3(r.BM25), report.F3(r.Vector), report.F3(r.Union)})
		}
	}
	return t, nil
}
