package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// holmNote explains the p and Holm columns of a table.
const holmNote = "p: two-sided paired bootstrap p-value on the same resamples; Holm: adjusted across the table's comparisons."

// shortLabel abbreviates a hybrid name for figures: the pairing label and β.
func shortLabel(cfg experiment.Config) string {
	return fmt.Sprintf("%s @%.2f", cfg.Pairing, cfg.Beta)
}

func metricCell(ev *experiment.Evaluation, metric string) string {
	iv := ev.CI[metric]
	return report.F3(ev.Result.Mean[metric]) + " " + report.CI3(iv.Lo, iv.Hi)
}

var ciColumns = []string{"Recall@5 (95% CI)", "MRR@5 (95% CI)", "nDCG@5 (95% CI)"}

func metricLabel(metric string) string {
	switch metric {
	case metrics.Recall5:
		return "Recall@5"
	case metrics.NDCG5:
		return "nDCG@5"
	case metrics.MRR5:
		return "MRR@5"
	}
	return metric
}

func bootstrapNote(s *Study) string {
	return fmt.Sprintf("95%% CIs: percentile bootstrap over evaluated questions (B = %d, seed = %d, type-7 percentiles); %d questions evaluated.",
		s.Protocol.B, s.Protocol.Seed, evaluated(s))
}

func bootstrapWords(s *Study) string {
	return fmt.Sprintf("percentile bootstrap, B = %d, seed = %d", s.Protocol.B, s.Protocol.Seed)
}

func diffCell(d *experiment.Difference) string {
	if d == nil {
		return "–"
	}
	return report.Signed3(d.Mean) + " " + report.CI3(d.Lo, d.Hi)
}

func pCell(p float64) string { return strconv.FormatFloat(p, 'f', 3, 64) }

func ivCell(iv experiment.Interval) string {
	return report.F3(iv.Mean) + " " + report.CI3(iv.Lo, iv.Hi)
}

func dCell(d *beyond.Diff) (diff, p, holm string) {
	if d == nil {
		return "–", "–", "–"
	}
	return report.Signed3(d.Mean) + " " + report.CI3(d.Lo, d.Hi), pCell(d.P), pCell(d.Holm)
}

func meanOf(x []float64) float64 {
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return sum / float64(max(len(x), 1))
}

// meanInterval is the mean of x with its percentile interval at level over
// the resamples of ix.
func meanInterval(ix interface {
	MeanCI([]float64, float64) (float64, float64, float64)
}, x []float64, level float64) experiment.Interval {
	m, lo, hi := ix.MeanCI(x, level)
	return experiment.Interval{Mean: m, Lo: lo, Hi: hi}
}
