package reproduce

import (
	"github.com/linemem/linemem/lib/report"
)

// Table 3 and Figure 1: the single retrievers.
var (
	table3  = tableArtefact("table3", NeedsSingles, true, singlesTable)
	figure1 = figureArtefact("figure1", NeedsSingles, true, singlesFigure)
)

// singlesTable reports the single retrievers with bootstrap CIs of the
// protocol's interval metrics (paper Table 3: Recall@5, MRR@5, nDCG@5).
func singlesTable(s *Study) (report.Table, error) {
	evs, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 3, Slug: "single_retrievers", Caption: "Single retriever performance",
		Columns: append([]string{"Method"}, ciColumns(s.Protocol)...),
		Notes:   []string{bootstrapNote(s)}}
	for _, ev := range evs {
		t.Rows = append(t.Rows, append([]string{ev.Name}, metricCells(ev, s.Protocol)...))
	}
	return t, nil
}

// singlesFigure plots the single retrievers' selection metric with CIs.
func singlesFigure(s *Study) (Figure, error) {
	evs, err := s.Singles()
	if err != nil {
		return Figure{}, err
	}
	items := make([]report.LabeledCI, len(evs))
	for i, ev := range evs {
		iv := ev.CI[s.Protocol.SelectionMetric]
		items[i] = report.LabeledCI{Label: ev.Name, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	}
	label := selectionLabel(s)
	p, err := report.PointsWithCI("Single-retriever "+label+" ("+levelWords(s.Protocol)+" bootstrap CI)", label, items)
	return Figure{Number: 1, Slug: "single_retrievers", Plot: p}, err
}
