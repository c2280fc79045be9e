package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/report"
)

// table9 is the paper's Table 9.
var table9 = tableArtefact("table9", NeedsSweep, true, overlapTable)

// overlapTable counts Top-5 success overlap of the selected pair's components
// (paper Table 9).
func overlapTable(s *Study) (report.Table, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	sparse, vec, err := s.Outcome.Components(cfg.Pairing)
	if err != nil {
		return report.Table{}, err
	}
	o, err := analysis.SuccessOverlap(s.Questions, s.Qrels, sparse.Run, vec.Run, 5)
	if err != nil {
		return report.Table{}, err
	}
	return report.Table{Number: 9, Slug: "success_overlap", Caption: "Top-5 primary-gold success overlap for the selected retriever pair",
		Columns: []string{"Success pattern", "Questions"}, Align: []report.Alignment{report.AlignLeft, report.AlignRight},
		Rows: [][]string{
			{"BM25 only", strconv.Itoa(o.BM25Only)}, {"Vector only", strconv.Itoa(o.VectorOnly)},
			{"Both", strconv.Itoa(o.Both)}, {"Neither", strconv.Itoa(o.Neither)},
		},
		Notes: []string{fmt.Sprintf("Components: %s and %s.", sparse.Name, vec.Name)}}, nil
}
