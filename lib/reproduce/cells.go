package reproduce

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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

// intervalMetrics are the metrics of a table's interval columns (Tables 3
// and 4 and the tables beyond the paper that follow them): the protocol's
// metrics in order, without the success family, whose Top-k failures
// (Success@k = 0) Tables 7 and 8 count instead.
func intervalMetrics(p experiment.Protocol) []string {
	var out []string
	for _, name := range p.Metrics {
		if m, err := metrics.Parse(name); err == nil && m.Family != "success" {
			out = append(out, name)
		}
	}
	return out
}

// ciColumns heads the interval columns of intervalMetrics: "Recall@5 (95% CI)".
func ciColumns(p experiment.Protocol) []string {
	ms := intervalMetrics(p)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = metrics.Label(m) + " (" + levelWords(p) + " CI)"
	}
	return out
}

// metricCells are ev's cells under ciColumns.
func metricCells(ev *experiment.Evaluation, p experiment.Protocol) []string {
	ms := intervalMetrics(p)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = metricCell(ev, m)
	}
	return out
}

// levelWords is the protocol's interval level as a percentage: "95%".
func levelWords(p experiment.Protocol) string {
	return strconv.FormatFloat(math.Round(p.Level*1000)/10, 'f', -1, 64) + "%"
}

// selectionLabel is the protocol's selection metric as tables name it.
func selectionLabel(s *Study) string { return metrics.Label(s.Protocol.SelectionMetric) }

// metricSlug is a metric name as file names carry it: "recall@5" → "recall5".
func metricSlug(name string) string { return strings.ReplaceAll(name, "@", "") }

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
