package reproduce

import (
	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// The embedding_text component ablation: its table and figure.
var (
	ablationTableArtefact = tableArtefact(AblationSlug, 0, false, func(s *Study) (report.Table, error) {
		rows, err := ablation(s)
		if err != nil {
			return report.Table{}, err
		}
		return ablationTable(rows, s), nil
	})
	ablationFigureArtefact = withMetrics(figureArtefact(AblationFigureSlug, 0, false, func(s *Study) (Figure, error) {
		rows, err := ablation(s)
		if err != nil {
			return Figure{}, err
		}
		p, err := ablationFigure(rows)
		return Figure{Slug: AblationFigureSlug, Plot: p, Notes: []string{"Rows: method · text indexed; the paper's composition is prefix, summary, excerpt label and excerpt."}}, err
	}), metrics.Recall5)
)

// ablation runs the embedding_text component ablation (lib/beyond) over
// the Study, once.
func ablation(s *Study) ([]beyond.AblationRow, error) {
	return cached(s, "ablation", func() ([]beyond.AblationRow, error) {
		return beyond.Ablation(beyond.AblationInput{Chunks: s.Chunks, Summaries: s.Summaries, Questions: s.Questions, Qrels: s.Qrels, Tokenizers: beyond.AblationTokenizers, Protocol: s.Protocol})
	})
}

// ablationTable lays the ablation out as AblationSlug, with the interval
// columns of s's protocol.
func ablationTable(rows []beyond.AblationRow, s *Study) report.Table {
	note := bootstrapWords(s) + "; Δ paired against the paper's composition under the same method."
	cols := ciColumns(s.Protocol)
	t := report.Table{Slug: AblationSlug, Caption: "embedding_text components: each alone and the paper's composition",
		Columns: append(append([]string{"Method", "Text indexed"}, cols...), "Δ"+selectionLabel(s)+" vs paper's ("+levelWords(s.Protocol)+" CI)", "p", "Holm p"),
		// Many interval columns fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			"prefix only: the fixed first line, the same for every chunk (a floor; the vector model cannot be fitted on one text). summary only: the summary. raw excerpt only: the first 4,000 characters of raw_text. The paper's: prefix, summary, excerpt label and excerpt.",
			"The vector rows fit the local LSA embedder on each variant's own texts (inputs capped at 2,000 characters, queries folded in). " + note + " " + holmNote,
		}}
	for _, r := range rows {
		if r.Eval == nil {
			row := []string{r.Method, r.Variant}
			for range cols {
				row = append(row, "–")
			}
			t.Rows = append(t.Rows, append(row, "not run: "+r.Skipped, "–", "–"))
			continue
		}
		d, p, h := dCell(r.Diff)
		t.Rows = append(t.Rows, append(append([]string{r.Method, r.Variant}, metricCells(r.Eval, s.Protocol)...), d, p, h))
	}
	return t
}

// ablationFigure plots Recall@5 with its interval for every row that ran.
func ablationFigure(rows []beyond.AblationRow) (*plot.Plot, error) {
	var items []report.LabeledCI
	for _, r := range rows {
		if r.Eval == nil {
			continue
		}
		iv := r.Eval.CI[metrics.Recall5]
		items = append(items, report.LabeledCI{Label: r.Method + " · " + r.Variant, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi})
	}
	return report.PointsWithCI("Recall@5 by embedding_text composition (95% CI)", "Recall@5", items)
}

func ablationVariantNames() []string {
	var out []string
	for _, v := range beyond.AblationVariants {
		out = append(out, v.Name)
	}
	return out
}
