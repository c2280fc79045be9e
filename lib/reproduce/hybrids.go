package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// Table 4 and Figures 2–3: the hybrid sweep.
var (
	table4  = tableArtefact("table4", NeedsSweep, true, hybridsTable)
	figure2 = figureArtefact("figure2", NeedsSweep, true, func(s *Study) (Figure, error) {
		return betaFigure(s, 2, s.Protocol.SelectionMetric)
	})
	figure3 = withMetrics(figureArtefact("figure3", NeedsSweep, true, func(s *Study) (Figure, error) {
		return betaFigure(s, 3, metrics.NDCG5)
	}), metrics.NDCG5)
)

// hybridsTable lists each pairing at its best β, by the selection metric
// descending (paper Table 4: Recall@5; exploratory, selected on the same
// questions), with the interval columns of the protocol's metrics.
func hybridsTable(s *Study) (report.Table, error) {
	sw, err := s.Sweep()
	if err != nil {
		return report.Table{}, err
	}
	type row struct {
		cfg experiment.Config
		ev  *experiment.Evaluation
	}
	var rows []row
	for _, p := range s.Protocol.Pairings {
		ev, cfg, err := s.Outcome.BestOf(p.Label)
		if err != nil {
			return report.Table{}, err
		}
		rows = append(rows, row{cfg, ev})
	}
	// Stable insertion sort by the selection metric descending keeps pairing
	// order on ties.
	sel := s.Protocol.SelectionMetric
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j].ev.Result.Mean[sel] > rows[j-1].ev.Result.Mean[sel]; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	t := report.Table{Number: 4, Slug: "hybrid_sweep", Caption: fmt.Sprintf("Exploratory hybrid comparison selected on the same %d questions", evaluated(s)),
		Columns: append([]string{"Hybrid combination", "β"}, ciColumns(s.Protocol)...),
		Notes: []string{
			"R: raw_text; S: summary; E: embedding_text; Vec: vector retrieval. Each pairing at its best β (first attaining its maximum " + selectionLabel(s) + ").",
			fmt.Sprintf("Selected over all %d configurations: %s.", len(sw.Configs), sw.SelectedConfig().Name),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, append([]string{r.cfg.Pairing, fmt.Sprintf("%.2f", r.cfg.Beta)}, metricCells(r.ev, s.Protocol)...))
	}
	return t, nil
}

// betaFigure plots metric against β for every pairing, marking the selected
// configuration, as paper Figure number, "hybrid_METRIC_vs_beta".
func betaFigure(s *Study, number int, metric string) (Figure, error) {
	slug := "hybrid_" + metricSlug(metric) + "_vs_beta"
	title := "Linear hybrid " + metrics.Label(metric) + " vs β by pairing (exploratory)"
	sw, err := s.Sweep()
	if err != nil {
		return Figure{}, err
	}
	var series []report.Series
	for _, p := range s.Protocol.Pairings {
		ser := report.Series{Label: p.Label}
		for _, c := range sw.Configs {
			if c.Pairing == p.Label {
				ser.X = append(ser.X, c.Beta)
				ser.Y = append(ser.Y, c.Result.Mean[metric])
			}
		}
		series = append(series, ser)
	}
	sel := sw.SelectedConfig()
	hl := &report.Point{X: sel.Beta, Y: sel.Result.Mean[metric], Label: "selected: " + shortLabel(sel)}
	p, err := report.BetaCurves(title, metrics.Label(metric), series, hl)
	return Figure{Number: number, Slug: slug, Plot: p, Notes: []string{
		"The ring marks the configuration selected over all pairings and β (on the same questions: exploratory).",
		PairingAbbreviations}}, err
}
