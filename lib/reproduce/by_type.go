package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/report"
)

// Table 6 and Figure 5: the selected hybrid by question type.
var (
	table6  = tableArtefact("table6", NeedsSweep, true, byTypeTable)
	figure5 = figureArtefact("figure5", NeedsSweep, true, byTypeFigure)
)

// byType returns the selection metric (the paper's Recall@5) of the selected
// hybrid by question type with intervals, after the overall row.
func byType(s *Study) ([]bootstrap.TypeInterval, error) {
	best, _, err := s.Selected()
	if err != nil {
		return nil, err
	}
	rows, err := bootstrap.ByType(best.Result, s.Protocol.SelectionMetric, s.Protocol.B, s.Protocol.Seed, s.Protocol.Level)
	if err != nil {
		return nil, err
	}
	iv := best.CI[s.Protocol.SelectionMetric]
	overall := bootstrap.TypeInterval{Type: "overall", Questions: len(best.Result.QIDs), Mean: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	return append([]bootstrap.TypeInterval{overall}, rows...), nil
}

// byTypeTable reports the selected hybrid by question type (paper Table 6).
func byTypeTable(s *Study) (report.Table, error) {
	rows, err := byType(s)
	if err != nil {
		return report.Table{}, err
	}
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 6, Slug: "by_question_type", Caption: "Selection-conditioned best-hybrid performance by question type",
		Columns: []string{"Question type", "Questions", selectionLabel(s), levelWords(s.Protocol) + " CI"},
		Notes:   []string{"Selected configuration: " + cfg.Name + ". Per-type intervals resample within each type."}}
	for _, r := range rows[1:] {
		t.Rows = append(t.Rows, []string{r.Type, strconv.Itoa(r.Questions), report.F3(r.Mean), report.CI3(r.Lo, r.Hi)})
	}
	return t, nil
}

// byTypeFigure plots the selected hybrid's selection metric overall and by
// type.
func byTypeFigure(s *Study) (Figure, error) {
	rows, err := byType(s)
	if err != nil {
		return Figure{}, err
	}
	items := make([]report.LabeledCI, len(rows))
	for i, r := range rows {
		items[i] = report.LabeledCI{Label: fmt.Sprintf("%s (n = %d)", r.Type, r.Questions), Value: r.Mean, Lo: r.Lo, Hi: r.Hi}
	}
	label := selectionLabel(s)
	p, err := report.PointsWithCI("Selected hybrid "+label+" by question type ("+levelWords(s.Protocol)+" CI)", label, items)
	return Figure{Number: 5, Slug: "by_question_type", Plot: p}, err
}
