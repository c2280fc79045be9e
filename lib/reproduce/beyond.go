package reproduce

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

// Beyond the paper: three limits that paper §9.1 names and leaves unmeasured,
// computed by lib/beyond with the Study's protocol and laid out here. Their
// tables and figures carry no paper number and are written under these
// slugs.
const (
	TokenizersSlug       = "beyond_tokenizers"
	FusionSlug           = "beyond_fusion"
	HeldOutSlug          = "beyond_heldout_selection"
	AggregateSlug        = "beyond_aggregate"
	TokenizersFigureSlug = "beyond_tokenizers_recall5"
	FusionFigureSlug     = "beyond_fusion_recall5_vs_beta"
)

// HeldOutSplits is the number of random half splits HeldOutTable draws.
const HeldOutSplits = 200

// CompareTokenizers is beyond.CompareTokenizers over the Study's corpus,
// reusing the single-retriever runs of Table 3.
func (s *Study) CompareTokenizers() (*beyond.TokenizerComparison, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	return beyond.CompareTokenizers(s.Setup, retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, singles)
}

// CompareFusion is beyond.CompareFusion of the Study's sweep and selected
// hybrid.
func (s *Study) CompareFusion() (*beyond.FusionComparison, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, err
	}
	linear, _, err := s.Selected()
	if err != nil {
		return nil, err
	}
	return beyond.CompareFusion(s.Setup, sw, linear)
}

// HeldOutSelection is beyond.HeldOutSelection of the Study's sweep and
// single retrievers under its selection metric.
func (s *Study) HeldOutSelection(splits int, seed uint64) (*beyond.HeldOut, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, err
	}
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	return beyond.HeldOutSelection(sw, singles, s.Protocol.SelectionMetric, splits, seed)
}

func diffCell(d *experiment.Difference) string {
	if d == nil {
		return "–"
	}
	return report.Signed3(d.Mean) + " " + report.CI3(d.Lo, d.Hi)
}

// TokenizerTable lays CompareTokenizers out as TokenizersSlug: one row per
// retriever and tokenizer, with intervals and the paired difference from the
// paper's tokenizer.
func (s *Study) TokenizerTable() (report.Table, error) {
	c, err := s.CompareTokenizers()
	if err != nil {
		return report.Table{}, err
	}
	return s.tokenizerTable(c), nil
}

func (s *Study) tokenizerTable(c *beyond.TokenizerComparison) report.Table {
	t := report.Table{Slug: TokenizersSlug, Caption: "BM25 by tokenizer on each representation",
		Columns: append(append([]string{"Retriever", "Tokenizer"}, ciColumns...), "ΔRecall@5 vs "+tokenize.Default+" (95% CI)"),
		Notes: []string{
			tokenize.Default + " is the paper's regular-expression tokenizer (§5.1); kagome keeps content words in base form (IPA dictionary); char-bigram indexes overlapping character 2-grams after NFKC. BM25 k1 = " + strconv.FormatFloat(bm25.K1, 'g', -1, 64) + ", b = " + strconv.FormatFloat(bm25.B, 'g', -1, 64) + " for all three.",
			s.bootstrapNote() + " Δ: paired bootstrap difference from the same representation under " + tokenize.Default + ", on the same resamples.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []string{r.Retriever, r.Tokenizer, metricCell(r.Eval, metrics.Recall5), metricCell(r.Eval, metrics.MRR5), metricCell(r.Eval, metrics.NDCG5), diffCell(r.Diff)})
	}
	return t
}

// TokenizerFigure plots Recall@5 with its interval for every row of
// CompareTokenizers, in row order.
func (s *Study) TokenizerFigure() (*plot.Plot, error) {
	c, err := s.CompareTokenizers()
	if err != nil {
		return nil, err
	}
	return tokenizerFigure(c)
}

func tokenizerFigure(c *beyond.TokenizerComparison) (*plot.Plot, error) {
	items := make([]report.LabeledCI, len(c.Rows))
	for i, r := range c.Rows {
		iv := r.Eval.CI[metrics.Recall5]
		items[i] = report.LabeledCI{Label: r.Retriever + " · " + r.Tokenizer, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	}
	return report.PointsWithCI("BM25 Recall@5 by representation and tokenizer (95% CI)", "Recall@5", items)
}

// FusionTable lays CompareFusion out as FusionSlug.
func (s *Study) FusionTable() (report.Table, error) {
	c, err := s.CompareFusion()
	if err != nil {
		return report.Table{}, err
	}
	return fusionTable(c), nil
}

func fusionTable(c *beyond.FusionComparison) report.Table {
	t := report.Table{Slug: FusionSlug, Caption: "Fusion rules on the selected pair (" + c.Selected.Pairing + ")",
		Columns: append(append([]string{"Rule", "Retriever"}, ciColumns...), "ΔRecall@5 vs linear (95% CI)"),
		// Six columns of intervals fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			"Every rule fuses the same top-200 component runs. RRF: Σ 1/(60 + rank). z-score: (1 − β)·vec_z + β·bm25_z, a chunk missing from a list counts as that list's mean.",
			"The pairing and the linear β were selected on these questions, and the z-score row at its own best β likewise; RRF has no weight. Δ: paired bootstrap difference from the linear row.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []string{r.Rule, r.Eval.Name, metricCell(r.Eval, metrics.Recall5), metricCell(r.Eval, metrics.MRR5), metricCell(r.Eval, metrics.NDCG5), diffCell(r.Diff)})
	}
	return t
}

// FusionFigure plots Recall@5 against β for the linear and the z-score rule
// of CompareFusion, marking the selected configuration.
func (s *Study) FusionFigure() (*plot.Plot, error) {
	c, err := s.CompareFusion()
	if err != nil {
		return nil, err
	}
	return fusionFigure(c)
}

func fusionFigure(c *beyond.FusionComparison) (*plot.Plot, error) {
	series := func(label string, cfgs []experiment.Config) report.Series {
		ser := report.Series{Label: label}
		for _, sc := range cfgs {
			ser.X = append(ser.X, sc.Beta)
			ser.Y = append(ser.Y, sc.Result.Mean[metrics.Recall5])
		}
		return ser
	}
	hl := &report.Point{X: c.Selected.Beta, Y: c.Selected.Result.Mean[metrics.Recall5], Label: "selected (linear)"}
	return report.BetaCurves("Recall@5 vs β on "+c.Selected.Pairing+": linear min–max vs z-score", "Recall@5",
		[]report.Series{series("linear min–max (paper)", c.Linear), series("z-score", c.ZScore)}, hl)
}

// HeldOutTable is HeldOutSelection with HeldOutSplits splits seeded by the
// protocol's bootstrap seed, laid out as HeldOutSlug.
func (s *Study) HeldOutTable() (report.Table, error) {
	h, err := s.HeldOutSelection(HeldOutSplits, s.Protocol.Seed)
	if err != nil {
		return report.Table{}, err
	}
	return heldOutTable(h), nil
}

// heldOutTable summarises the splits (HeldOut.Summary) as HeldOutSlug: mean and 2.5th–97.5th
// percentile over splits of the in-sample and held-out Recall@5 of the
// selected hybrid, the optimism, the held-out gain over the selected single
// retriever, and how often the gain is positive and the full-data pairing
// and configuration are chosen again.
func heldOutTable(h *beyond.HeldOut) report.Table {
	k := len(h.Splits)
	sum := h.Summary()
	row := func(label string, iv experiment.Interval, signed bool) []string {
		f := report.F3
		if signed {
			f = report.Signed3
		}
		return []string{label, f(iv.Mean), report.CI3(iv.Lo, iv.Hi)}
	}
	count := func(label string, c int) []string {
		return []string{label, fmt.Sprintf("%d of %d", c, k), "–"}
	}
	half := strconv.Itoa(h.Questions / 2)
	return report.Table{Slug: HeldOutSlug, Caption: fmt.Sprintf("Selection on one half of the questions, evaluation on the other (%d random splits)", k),
		Columns: []string{"Quantity", "Mean over splits", "2.5th–97.5th percentile"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight},
		Rows: [][]string{
			row("Recall@5 of the selected hybrid, selection half", sum.InSample, false),
			row("Recall@5 of the selected hybrid, held-out half", sum.HeldOut, false),
			row("Optimism (selection − held-out)", sum.Optimism, true),
			row("Recall@5 of the selected single retriever, held-out half", sum.SingleHeldOut, false),
			row("Held-out gain of the hybrid over the single retriever", sum.Gain, true),
			count("Splits with a positive held-out gain", sum.Positive),
			count("Splits selecting the full-data pairing ("+h.Full.Pairing+")", sum.SamePairing),
			count("Splits selecting the full-data configuration", sum.SameConfig),
		},
		Notes: []string{
			fmt.Sprintf("Each split shuffles the %d evaluated questions (math/rand/v2 PCG, seed %d) and selects on %s of them with the paper's rule over the 126 hybrid configurations, and over the five single retrievers, then scores both on the other %d.",
				h.Questions, h.Seed, half, h.Questions-h.Questions/2),
			fmt.Sprintf("Selected on all %d questions: %s, Recall@5 %s (in-sample). Percentiles describe variation over overlapping splits, not a confidence interval; selection on a half is noisier than on all questions.",
				h.Questions, h.Full.Name, report.F3(h.Full.Result.Mean[metrics.Recall5])),
		}}
}
