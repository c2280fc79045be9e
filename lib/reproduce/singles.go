package reproduce

import (
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// Table 3 and Figure 1: the single retrievers.
var (
	table3  = tableArtefact("table3", NeedsSingles, true, singlesTable)
	figure1 = figureArtefact("figure1", NeedsSingles, true, singlesFigure)
)

// singlesTable reports the single retrievers with 95% bootstrap CIs (paper Table 3).
func singlesTable(s *Study) (report.Table, error) {
	evs, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 3, Slug: "single_retrievers", Caption: "Single retriever performance",
		Columns: append([]string{"Method"}, ciColumns...),
		Notes:   []string{bootstrapNote(s)}}
	for _, ev := range evs {
		t.Rows = append(t.Rows, []string{ev.Name, metricCell(ev, metrics.Recall5), metricCell(ev, metrics.MRR5), metricCell(ev, metrics.NDCG5)})
	}
	return t, nil
}

// singlesFigure plots single-retriever Recall@5 with CIs.
func singlesFigure(s *Study) (Figure, error) {
	evs, err := s.Singles()
	if err != nil {
		return Figure{}, err
	}
	items := make([]report.LabeledCI, len(evs))
	for i, ev := range evs {
		iv := ev.CI[metrics.Recall5]
		items[i] = report.LabeledCI{Label: ev.Name, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	}
	p, err := report.PointsWithCI("Single-retriever Recall@5 (95% bootstrap CI)", "Recall@5", items)
	return Figure{Number: 1, Slug: "single_retrievers", Plot: p}, err
}
