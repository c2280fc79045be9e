package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// aggregateArtefact compares remedies for aggregate questions.
var aggregateArtefact = tableArtefact(AggregateSlug, NeedsSweep, false, aggregateTable)

// aggregateTable compares the selected hybrid with each remedy applied to
// it (beyond.RemedyNames), by question type: Recall@5 with its interval, Recall@10,
// Recall@20, Success@5 and the paired differences in Recall@5 and Success@5
// against the hybrid. The paper has no such table (Number 0, AggregateSlug).
func aggregateTable(s *Study) (report.Table, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	names := beyond.RemedyNames(cfg.Name)
	rows, err := beyond.CompareRemedies(s.Outcome, names)
	if err != nil {
		return report.Table{}, err
	}
	label := map[string]string{names[0]: "selected hybrid", names[1]: fmt.Sprintf("+ mmr λ = %.2f", beyond.RemedyLambda), names[2]: fmt.Sprintf("+ period γ = %.2f", beyond.RemedyGamma)}
	t := report.Table{Number: 0, Slug: AggregateSlug,
		Caption: "Remedies for aggregate questions applied to the selected hybrid, by question type",
		Columns: []string{"Question type", "Questions", "Method", "Recall@5 (95% CI)", "Recall@10", "Recall@20", "Success@5", "ΔRecall@5 (95% CI)", "ΔSuccess@5 (95% CI)"},
		// Nine columns fit a one-column page only with the metric names short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}, {Full: "Success@", Short: "S@"}},
		Notes: []string{
			"Selected hybrid: " + cfg.Name + ". mmr: maximal marginal relevance over its top 200, similarity 1 between chunks of the same source (lib/diversify); period: its score fused with BM25 over source-month units of summaries (lib/hierarchy). Both reorder the hybrid's candidates only.",
			fmt.Sprintf("Δ: paired difference remedy − hybrid over the same resamples; percentile bootstrap, B = %d, seed = %d; per-type rows resample within the type. λ and γ were chosen on these same questions (the best aggregate Recall@5 that keeps overall Recall@5 at least the hybrid's): exploratory, not confirmatory.", s.Protocol.B, s.Protocol.Seed),
		}}
	for _, r := range rows {
		dr, ds := "", ""
		if r.Diffs != nil {
			dr = remedyDiffCell(r.Diffs[metrics.Recall5])
			ds = remedyDiffCell(r.Diffs[metrics.Success5])
		}
		iv := r.Scores[metrics.Recall5]
		t.Rows = append(t.Rows, []string{r.Type, strconv.Itoa(r.Questions), label[r.Method],
			report.F3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi), report.F3(r.Scores[metrics.Recall10].Mean),
			report.F3(r.Scores[metrics.Recall20].Mean), report.F3(r.Scores[metrics.Success5].Mean), dr, ds})
	}
	return t, nil
}

func remedyDiffCell(iv experiment.Interval) string {
	return report.Signed3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi)
}
