package reproduce

import (
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// Fusion rules: linear min–max, RRF and z-score on the selected pair.
var (
	fusionTableArtefact  = tableArtefact(FusionSlug, NeedsSweep, false, fusionTable)
	fusionFigureArtefact = withMetrics(figureArtefact(FusionFigureSlug, NeedsSweep, false, fusionFigure), metrics.Recall5)
)

// compareFusion is beyond.CompareFusion of the Study's Outcome, once.
func compareFusion(s *Study) (*beyond.FusionComparison, error) {
	return cached(s, "fusion", func() (*beyond.FusionComparison, error) { return beyond.CompareFusion(s.Outcome) })
}

// fusionTable lays beyond.CompareFusion out as FusionSlug.
func fusionTable(s *Study) (report.Table, error) {
	c, err := compareFusion(s)
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: FusionSlug, Caption: "Fusion rules on the selected pair (" + c.Selected.Pairing + ")",
		Columns: append(append([]string{"Rule", "Retriever"}, ciColumns(s.Protocol)...), "Δ"+selectionLabel(s)+" vs linear ("+levelWords(s.Protocol)+" CI)"),
		// Six columns of intervals fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			"Every rule fuses the same top-200 component runs. RRF: Σ 1/(60 + rank). z-score: (1 − β)·vec_z + β·bm25_z, a chunk missing from a list counts as that list's mean.",
			"The pairing and the linear β were selected on these questions, and the z-score row at its own best β likewise; RRF has no weight. Δ: paired bootstrap difference from the linear row.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, append(append([]string{r.Rule, r.Eval.Name}, metricCells(r.Eval, s.Protocol)...), diffCell(r.Diff)))
	}
	return t, nil
}

// fusionFigure plots Recall@5 against β for the linear and the z-score rule
// of beyond.CompareFusion, marking the selected configuration.
func fusionFigure(s *Study) (Figure, error) {
	c, err := compareFusion(s)
	if err != nil {
		return Figure{}, err
	}
	series := func(label string, cfgs []experiment.Config) report.Series {
		ser := report.Series{Label: label}
		for _, sc := range cfgs {
			ser.X = append(ser.X, sc.Beta)
			ser.Y = append(ser.Y, sc.Result.Mean[metrics.Recall5])
		}
		return ser
	}
	hl := &report.Point{X: c.Selected.Beta, Y: c.Selected.Result.Mean[metrics.Recall5], Label: "selected (linear)"}
	p, err := report.BetaCurves("Recall@5 vs β on "+c.Selected.Pairing+": linear min–max vs z-score", "Recall@5",
		[]report.Series{series("linear min–max (paper)", c.Linear), series("z-score", c.ZScore)}, hl)
	return Figure{Slug: FusionFigureSlug, Plot: p, Notes: []string{
		"The ring marks the linear configuration selected over all pairings and β (on the same questions: exploratory); the z-score rule fuses the same component runs.",
		PairingAbbreviations}}, err
}
