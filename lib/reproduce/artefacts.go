package reproduce

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// Figure is one figure of the paper, ready to be saved or displayed.
type Figure struct {
	Number int
	Slug   string
	Plot   *plot.Plot
	// Notes follow the title in the caption: what abbreviations stand for,
	// what a label means.
	Notes []string
}

// BaseName is the figure's file name without extension.
func (f Figure) BaseName() string { return report.FigureBaseName(f.Number, f.Slug) }

// CaptionExt ends the name of a figure's caption file, written beside its
// PNG and SVG: BaseName + CaptionExt.
const CaptionExt = ".caption.txt"

// PairingAbbreviations spells out the short names of retrievers and
// pairings that figures print (S-BM25, E-Vec, E-BM25+E-Vec @0.40).
const PairingAbbreviations = "R: raw_text; S: summary; E: embedding_text; BM25: BM25 keyword retrieval; Vec: dense vector retrieval; A+B @β: the linear hybrid of A and B with weight β on the BM25 score."

// Caption is the figure's caption: "Figure N. " and its title, the range
// of each numeric axis (a metric axis need not start at 0), then its Notes.
func (f Figure) Caption() string {
	parts := []string{fmt.Sprintf("Figure %d. %s.", f.Number, f.Plot.Title.Text)}
	for _, a := range []struct {
		name string
		axis *plot.Axis
	}{{"Horizontal", &f.Plot.X}, {"Vertical", &f.Plot.Y}} {
		if a.axis.Label.Text == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s axis: %s from %s to %s.", a.name, a.axis.Label.Text, axisValue(a.axis.Min), axisValue(a.axis.Max)))
	}
	return strings.Join(append(parts, f.Notes...), " ")
}

// axisValue prints an axis bound with at most three decimals.
func axisValue(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}

// shortLabel abbreviates a hybrid name for figures: the pairing label and β.
func shortLabel(cfg experiment.Config) string {
	return fmt.Sprintf("%s @%.2f", cfg.Pairing, cfg.Beta)
}

func metricCell(ev *experiment.Evaluation, metric string) string {
	iv := ev.CI[metric]
	return report.F3(ev.Result.Mean[metric]) + " " + report.CI3(iv.Lo, iv.Hi)
}

var ciColumns = []string{"Recall@5 (95% CI)", "MRR@5 (95% CI)", "nDCG@5 (95% CI)"}

// Table1 describes the dataset (paper Table 1, with the chunk statistics of
// §3.2–3.3 and the gold counts of §4.3).
func (s *Study) Table1() report.Table {
	order, counts := s.QuestionCounts()
	rel2, rel1 := 0, 0
	for _, docs := range s.Qrels {
		for _, rel := range docs {
			switch rel {
			case 2:
				rel2++
			case 1:
				rel1++
			}
		}
	}
	st := s.Stats
	rows := [][]string{
		{"LINE messages", strconv.Itoa(st.Messages)},
		{"Sources", strconv.Itoa(st.Sources)},
		{"Chunks", strconv.Itoa(st.Chunks)},
		{"Messages in no chunk (render-limit trimming)", strconv.Itoa(st.UncoveredMessages)},
		{"raw_text length, mean / p95 / max (characters)", fmt.Sprintf("%.0f / %.0f / %d", st.RawTextLength.Mean, st.RawTextLength.P95, st.RawTextLength.Max)},
		{"summary length, mean / p95 / max (characters)", fmt.Sprintf("%.0f / %.0f / %d", st.SummaryLength.Mean, st.SummaryLength.P95, st.SummaryLength.Max)},
		{"Evaluation questions", strconv.Itoa(len(s.Questions))},
	}
	for _, t := range order {
		if counts[t] > 0 {
			rows = append(rows, []string{"  " + t, strconv.Itoa(counts[t])})
		}
	}
	rows = append(rows,
		[]string{"Primary-gold (rel 2) / secondary-gold (rel 1) chunks", fmt.Sprintf("%d / %d", rel2, rel1)},
		[]string{"Main evaluation unit", "chunk"},
		[]string{"Embedding model", s.EmbedModel},
		[]string{"BM25 tokenizer", s.Protocol.Tokenizer},
	)
	notes := []string{"Gold: " + s.GoldReport + "."}
	if missing := s.MissingGold(); len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("Warning: %d gold chunk IDs are not in the corpus; they still count in the denominators.", len(missing)))
	}
	return report.Table{
		Number: 1, Slug: "dataset", Caption: "Dataset statistics",
		Columns: []string{"Item", "Value"}, Align: []report.Alignment{report.AlignLeft, report.AlignRight}, Rows: rows,
		Notes: notes,
	}
}

// MissingGold lists judged chunks absent from the corpus (spec §10: a
// warning; they still count in denominators).
func (s *Study) MissingGold() []metrics.GoldRef {
	corpus := make(map[string]bool, len(s.Chunks))
	for _, c := range s.Chunks {
		corpus[c.ID] = true
	}
	return metrics.MissingGold(s.Qrels, corpus)
}

// Table3 reports the single retrievers with 95% bootstrap CIs (paper Table 3).
func (s *Study) Table3() (report.Table, error) {
	evs, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 3, Slug: "single_retrievers", Caption: "Single retriever performance",
		Columns: append([]string{"Method"}, ciColumns...),
		Notes:   []string{s.bootstrapNote()}}
	for _, ev := range evs {
		t.Rows = append(t.Rows, []string{ev.Name, metricCell(ev, metrics.Recall5), metricCell(ev, metrics.MRR5), metricCell(ev, metrics.NDCG5)})
	}
	return t, nil
}

func (s *Study) bootstrapNote() string {
	return fmt.Sprintf("95%% CIs: percentile bootstrap over evaluated questions (B = %d, seed = %d, type-7 percentiles); %d questions evaluated.",
		s.Protocol.B, s.Protocol.Seed, s.evaluated())
}

func (s *Study) evaluated() int {
	if s.singles != nil {
		return len(s.singles[0].Result.QIDs)
	}
	return len(s.Questions)
}

// Figure1 plots single-retriever Recall@5 with CIs.
func (s *Study) Figure1() (Figure, error) {
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

// Table4 lists each pairing at its best β, by Recall@5 descending (paper
// Table 4; exploratory, selected on the same questions).
func (s *Study) Table4() (report.Table, error) {
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
		ev, cfg, err := s.BestOfPairing(p.Label)
		if err != nil {
			return report.Table{}, err
		}
		rows = append(rows, row{cfg, ev})
	}
	// Stable insertion sort by Recall@5 descending keeps pairing order on ties.
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j].ev.Result.Mean[metrics.Recall5] > rows[j-1].ev.Result.Mean[metrics.Recall5]; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	t := report.Table{Number: 4, Slug: "hybrid_sweep", Caption: fmt.Sprintf("Exploratory hybrid comparison selected on the same %d questions", s.evaluated()),
		Columns: append([]string{"Hybrid combination", "β"}, ciColumns...),
		Notes: []string{
			"R: raw_text; S: summary; E: embedding_text; Vec: vector retrieval. Each pairing at its best β (first attaining its maximum Recall@5).",
			fmt.Sprintf("Selected over all %d configurations: %s.", len(sw.Configs), sw.SelectedConfig().Name),
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.cfg.Pairing, fmt.Sprintf("%.2f", r.cfg.Beta), metricCell(r.ev, metrics.Recall5), metricCell(r.ev, metrics.MRR5), metricCell(r.ev, metrics.NDCG5)})
	}
	return t, nil
}

// betaFigure plots metric against β for every pairing, marking the selected
// configuration.
func (s *Study) betaFigure(number int, slug, metric, title string) (Figure, error) {
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
	p, err := report.BetaCurves(title, metricLabel(metric), series, hl)
	return Figure{Number: number, Slug: slug, Plot: p, Notes: []string{
		"The ring marks the configuration selected over all pairings and β (on the same questions: exploratory).",
		PairingAbbreviations}}, err
}

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

// Figure2 plots hybrid Recall@5 versus β by pairing.
func (s *Study) Figure2() (Figure, error) {
	return s.betaFigure(2, "hybrid_recall5_vs_beta", metrics.Recall5, "Linear hybrid Recall@5 vs β by pairing (exploratory)")
}

// Figure3 plots hybrid nDCG@5 versus β by pairing.
func (s *Study) Figure3() (Figure, error) {
	return s.betaFigure(3, "hybrid_ndcg5_vs_beta", metrics.NDCG5, "Linear hybrid nDCG@5 vs β by pairing (exploratory)")
}

// Differences returns the paired Recall@5 differences of paper Table 5: the
// selected hybrid minus the best single retriever, and minus the summary
// hybrid at its best β.
func (s *Study) Differences() ([]experiment.Difference, []string, error) {
	best, bestCfg, err := s.Selected()
	if err != nil {
		return nil, nil, err
	}
	singles, err := s.Singles()
	if err != nil {
		return nil, nil, err
	}
	top := singles[0]
	for _, ev := range singles[1:] {
		if ev.Result.Mean[metrics.Recall5] > top.Result.Mean[metrics.Recall5] {
			top = ev
		}
	}
	sh, shCfg, err := s.SummaryHybrid()
	if err != nil {
		return nil, nil, err
	}
	d1, err := s.Setup.PairedDifference(best, top, metrics.Recall5)
	if err != nil {
		return nil, nil, err
	}
	d2, err := s.Setup.PairedDifference(best, sh, metrics.Recall5)
	if err != nil {
		return nil, nil, err
	}
	labels := []string{
		fmt.Sprintf("Best (%s) − %s", shortLabel(bestCfg), top.Name),
		fmt.Sprintf("Best (%s) − S-hybrid (β = %.2f)", shortLabel(bestCfg), shCfg.Beta),
	}
	return []experiment.Difference{d1, d2}, labels, nil
}

func interpretation(d experiment.Difference) string {
	switch {
	case d.Lo > 0:
		return "Positive conditional difference; selection uncertainty excluded"
	case d.Hi < 0:
		return "Negative conditional difference; selection uncertainty excluded"
	case d.Lo == 0 && d.Hi == 0:
		return "Identical on every question"
	}
	return "CI includes 0; inconclusive"
}

// Table5 reports the paired-bootstrap differences (paper Table 5).
func (s *Study) Table5() (report.Table, error) {
	diffs, labels, err := s.Differences()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 5, Slug: "paired_differences", Caption: "Bootstrap difference confidence intervals",
		Columns: []string{"Comparison", "ΔRecall@5", "95% CI", "Interpretation"},
		Notes:   []string{"Paired percentile bootstrap on the same resamples for both methods; conditional on the configuration selected on these questions."}}
	for i, d := range diffs {
		t.Rows = append(t.Rows, []string{labels[i], report.Signed3(d.Mean), report.CI3(d.Lo, d.Hi), interpretation(d)})
	}
	return t, nil
}

// Figure4 plots the paired differences with their CIs.
func (s *Study) Figure4() (Figure, error) {
	diffs, labels, err := s.Differences()
	if err != nil {
		return Figure{}, err
	}
	short := figure4Labels(labels)
	items := make([]report.LabeledCI, len(diffs))
	for i, d := range diffs {
		items[i] = report.LabeledCI{Label: short[i], Value: d.Mean, Lo: d.Lo, Hi: d.Hi}
	}
	p, err := report.DifferencesWithCI("Paired-bootstrap 95% CIs of Recall@5 differences (selection-conditioned)", "ΔRecall@5", items)
	notes := []string{"Rows, top to bottom: " + strings.Join(labels, "; ") + " (best: the selected hybrid; S-hybrid: the summary hybrid S-BM25+S-Vec at its best β).", PairingAbbreviations}
	return Figure{Number: 4, Slug: "paired_differences", Plot: p, Notes: notes}, err
}

// figure4Labels shortens the comparisons of Differences for Figure 4's
// rows, where a column-wide figure has no room for them: "Best (…) − X"
// becomes "best − X", X abbreviated as a single retriever (S-BM25, …) when
// it is one. The caption lists the full labels.
func figure4Labels(labels []string) []string {
	short := map[string]string{}
	for _, r := range retrieval.Singles() {
		short[r.Name()] = r.Short()
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		rest := l
		if j := strings.Index(l, " − "); j >= 0 {
			rest = l[j+len(" − "):]
		}
		if s, ok := short[rest]; ok {
			rest = s
		}
		if j := strings.Index(rest, " ("); j >= 0 {
			rest = rest[:j]
		}
		out[i] = "best − " + rest
	}
	return out
}

// ByType returns Recall@5 of the selected hybrid by question type with
// intervals, after the overall row.
func (s *Study) ByType() ([]bootstrap.TypeInterval, error) {
	best, _, err := s.Selected()
	if err != nil {
		return nil, err
	}
	rows, err := bootstrap.ByType(best.Result, s.Protocol.SelectionMetric, s.Protocol.B, s.Protocol.Seed, s.Protocol.Level)
	if err != nil {
		return nil, err
	}
	iv := best.CI[metrics.Recall5]
	overall := bootstrap.TypeInterval{Type: "overall", Questions: len(best.Result.QIDs), Mean: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	return append([]bootstrap.TypeInterval{overall}, rows...), nil
}

// Table6 reports the selected hybrid by question type (paper Table 6).
func (s *Study) Table6() (report.Table, error) {
	rows, err := s.ByType()
	if err != nil {
		return report.Table{}, err
	}
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 6, Slug: "by_question_type", Caption: "Selection-conditioned best-hybrid performance by question type",
		Columns: []string{"Question type", "Questions", "Recall@5", "95% CI"},
		Notes:   []string{"Selected configuration: " + cfg.Name + ". Per-type intervals resample within each type."}}
	for _, r := range rows[1:] {
		t.Rows = append(t.Rows, []string{r.Type, strconv.Itoa(r.Questions), report.F3(r.Mean), report.CI3(r.Lo, r.Hi)})
	}
	return t, nil
}

// Figure5 plots the selected hybrid's Recall@5 overall and by type.
func (s *Study) Figure5() (Figure, error) {
	rows, err := s.ByType()
	if err != nil {
		return Figure{}, err
	}
	items := make([]report.LabeledCI, len(rows))
	for i, r := range rows {
		items[i] = report.LabeledCI{Label: fmt.Sprintf("%s (n = %d)", r.Type, r.Questions), Value: r.Mean, Lo: r.Lo, Hi: r.Hi}
	}
	p, err := report.PointsWithCI("Selected hybrid Recall@5 by question type (95% CI)", "Recall@5", items)
	return Figure{Number: 5, Slug: "by_question_type", Plot: p}, err
}

// Table7 counts the selected hybrid's Top-5 failures by type (paper Table 7).
func (s *Study) Table7() (report.Table, error) {
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

// Table8 labels the summary hybrid's Top-5 failures by rule (paper Table 8),
// with the aggregate diagnostics of §7.3 as notes.
func (s *Study) Table8() (report.Table, error) {
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

// TopK returns Recall@k and Success@k by type for k = 5, 10, 20 under the
// summary hybrid.
func (s *Study) TopK() ([]analysis.TopKRow, error) {
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return nil, err
	}
	return analysis.TopKSensitivity(s.Questions, s.Qrels, sh.Run, TopKCutoffs)
}

// Figure6 plots Top-K sensitivity by question type under the summary hybrid.
func (s *Study) Figure6() (Figure, error) {
	rows, err := s.TopK()
	if err != nil {
		return Figure{}, err
	}
	_, cfg, err := s.SummaryHybrid()
	if err != nil {
		return Figure{}, err
	}
	var series []report.Series
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.Type]
		if !ok {
			i = len(series)
			index[r.Type] = i
			series = append(series, report.Series{Label: r.Type})
		}
		series[i].X = append(series[i].X, float64(r.K))
		series[i].Y = append(series[i].Y, r.Recall)
	}
	p, err := report.TopKSensitivity(fmt.Sprintf("Top-K sensitivity by question type (summary hybrid, β = %.2f)", cfg.Beta), "Recall@K", TopKCutoffs, series)
	return Figure{Number: 6, Slug: "topk_sensitivity", Plot: p, Notes: []string{"Summary hybrid: S-BM25+S-Vec (S: summary; Vec: dense vector retrieval); K: the number of retrieved chunks."}}, err
}

// Table9 counts Top-5 success overlap of the selected pair's components
// (paper Table 9).
func (s *Study) Table9() (report.Table, error) {
	_, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	sparse, vec, err := s.components(cfg.Pairing)
	if err != nil {
		return report.Table{}, err
	}
	o, err := analysis.SuccessOverlap(s.Questions, s.Qrels, sparse.Run, vec.Run, 5)
	if err != nil {
		return report.Table{}, err
	}
	return report.Table{Number: 9, Slug: "success_overlap", Caption: "Top-5 primary-gold success overlap for the selected retriever pair",
		Columns: []string{"Success pattern", "Questions"}, Align: []report.Alignment{report.AlignLeft, report.AlignRight},
		Rows: [][]string{
			{"BM25 only", strconv.Itoa(o.BM25Only)}, {"Vector only", strconv.Itoa(o.VectorOnly)},
			{"Both", strconv.Itoa(o.Both)}, {"Neither", strconv.Itoa(o.Neither)},
		},
		Notes: []string{fmt.Sprintf("Components: %s and %s.", sparse.Name, vec.Name)}}, nil
}

// CeilingTable reports Recall@200 of each component and of the oracle union of
// their top-200 lists, for the summary pair and the selected pair (paper §5.3).
// It has no number in the paper; its files are named CeilingBaseName.*.
func (s *Study) CeilingTable() (report.Table, error) {
	_, selCfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Slug: CeilingBaseName, Caption: "Candidate ceiling: macro Recall@200 over primary gold",
		Columns: []string{"Pairing", "Question type", "Questions", "BM25", "Vector", "Oracle union"},
		Notes:   []string{"Gold absent from both top-200 lists cannot be recovered by reranking the hybrid's candidates."}}
	pairings := []string{SummaryPairing}
	if selCfg.Pairing != SummaryPairing {
		pairings = append(pairings, selCfg.Pairing)
	}
	for _, label := range pairings {
		sparse, vec, err := s.components(label)
		if err != nil {
			return report.Table{}, err
		}
		rows, err := analysis.CandidateCeiling(s.Questions, s.Qrels, sparse.Run, vec.Run, s.Protocol.RunDepth)
		if err != nil {
			return report.Table{}, err
		}
		for _, r := range rows {
			t.Rows = append(t.Rows, []string{label, r.Type, strconv.Itoa(r.Questions), report.F3(r.BM25), report.F3(r.Vector), report.F3(r.Union)})
		}
	}
	return t, nil
}
