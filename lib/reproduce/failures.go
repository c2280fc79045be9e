package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/report"
)

// Tables 7 and 8: the Top-5 failures.
var (
	table7 = tableArtefact("table7", NeedsSweep, true, failuresTable)
	table8 = tableArtefact("table8", NeedsSweep, true, failureLabelsTable)
)

// failuresTable counts the selected hybrid's Top-5 failures by type (paper Table 7).
func failuresTable(s *Study) (report.Table, error) {
	best, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	fails, err := analysis.Failures(s.Questions, s.Qrels, best.Run, 5)
	if err != nil {
		return report.Table{}, err
	}
	rows, err := analysis.FailuresByType(s.Questions, s.Qrels, fails)
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 7, Slug: "failures_by_type", Caption: "Top-5 failures by question type under the selected best hybrid",
		Columns: []string{"Question type", "Questions", "Top-5 failures", "Failure rate"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignRight},
		Notes:   []string{"Selected configuration: " + cfg.Name + ". A Top-5 failure has no primary-gold chunk in the top 5."}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.Type, strconv.Itoa(r.Questions), strconv.Itoa(r.Failures), report.Percent1(r.Rate)})
	}
	return t, nil
}

// failureLabelsTable labels the summary hybrid's Top-5 failures by rule (paper Table 8),
// with the aggregate diagnostics of §7.3 as notes.
func failureLabelsTable(s *Study) (report.Table, error) {
	sh, cfg, err := s.SummaryHybrid()
	if err != nil {
		return report.Table{}, err
	}
	fails, err := analysis.Failures(s.Questions, s.Qrels, sh.Run, 5)
	if err != nil {
		return report.Table{}, err
	}
	diag, err := analysis.DiagnoseAggregate(s.Questions, s.Qrels, sh.Run, s.ChunkSpans(), 5, []int{10, 20})
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 8, Slug: "failure_labels", Caption: fmt.Sprintf("Rule-based labels for %d Top-5 failures of the summary hybrid (β = %.2f)", len(fails), cfg.Beta),
		Columns: []string{"Failure type", "Count", "Percentage"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight}}
	for _, r := range analysis.FailuresByLabel(fails) {
		t.Rows = append(t.Rows, []string{r.Label, strconv.Itoa(r.Count), report.Percent1(r.Share)})
	}
	note := fmt.Sprintf("Aggregate questions: %d, mean %.2f primary-gold chunks; %d span multiple dates and %d multiple sources. Of %d aggregate Top-5 failures,",
		diag.Questions, diag.MeanPrimaryGold, diag.MultiDate, diag.MultiSource, diag.Failures)
	for i, r := range diag.Recovered {
		if i > 0 {
			note += ","
		}
		note += fmt.Sprintf(" %d recovered by Top-%d", r.Recovered, r.K)
	}
	t.Notes = []string{"Labels are assigned mechanically in rule order (aggregate_failure, multiple_primary_gold_nonaggregate, other_rule_based_failure); they are not causal analyses.", note + "."}
	return t, nil
}
