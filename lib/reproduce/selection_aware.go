package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
)

// selectionBootstrapOf notes what the selection-aware bootstrap redoes.
const selectionBootstrapOf = "selection redone in every resample"

// selectionAwareArtefact estimates the gain that survives selection.
var selectionAwareArtefact = withMetrics(tableArtefact(SelectionAwareSlug, NeedsSingles|NeedsSweep, false, selectionAwareTable), metrics.Recall5)

// selectionAwareTable estimates how much of the selected hybrid's in-sample gain
// over the best single retriever survives selection (SelectionAwareSlug):
// nested cross-validation, the selection-aware bootstrap, and Holm-adjusted
// p-values of the paper's Table 5 comparisons.
func selectionAwareTable(s *Study) (report.Table, error) {
	sw, err := s.Sweep()
	if err != nil {
		return report.Table{}, err
	}
	singles, err := s.Singles()
	if err != nil {
		return report.Table{}, err
	}
	best, cfg, err := s.Selected()
	if err != nil {
		return report.Table{}, err
	}
	single, err := s.Outcome.BestSingle()
	if err != nil {
		return report.Table{}, err
	}
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return report.Table{}, err
	}
	var hybrids, singleCs []beyond.Candidate
	for _, c := range sw.Configs {
		hybrids = append(hybrids, beyond.Candidate{Name: c.Name, Pairing: c.Pairing, Scores: c.Result.Scores(s.Protocol.SelectionMetric)})
	}
	for _, ev := range singles {
		singleCs = append(singleCs, beyond.Candidate{Name: ev.Name, Scores: ev.Result.Scores(s.Protocol.SelectionMetric)})
	}
	n := len(best.Result.QIDs)
	ix := s.Setup.Indices(n)
	level := s.Protocol.Level
	rec := func(ev *experiment.Evaluation) []float64 { return ev.Result.Scores(metrics.Recall5) }
	inGain := beyond.PairedDiff(ix, rec(best), rec(single), level)

	cv, err := beyond.NestedCV(hybrids, singleCs, beyond.NestedFolds, s.Protocol.Seed)
	if err != nil {
		return report.Table{}, err
	}
	oofH, oofS := meanInterval(ix, cv.HybridOOF, s.Protocol.Level), meanInterval(ix, cv.SingleOOF, s.Protocol.Level)
	oofGain := beyond.PairedDiff(ix, cv.HybridOOF, cv.SingleOOF, level)
	same := 0
	for _, h := range cv.Hybrid {
		if h == cfg.Name {
			same++
		}
	}
	sb := beyond.SelectionAware(hybrids, singleCs, ix)
	inM, inLo, inHi := beyond.Spread(sb.InResample, level)
	oobM, oobLo, oobHi := beyond.Spread(sb.OutOfBag, level)

	t5 := []*beyond.Diff{}
	for _, other := range []*experiment.Evaluation{single, sh} {
		d := beyond.PairedDiff(ix, rec(best), rec(other), level)
		t5 = append(t5, &d)
	}
	beyond.HolmAll(t5)

	row := func(q string, iv experiment.Interval, signed bool, note string) []string {
		f := report.F3
		if signed {
			f = report.Signed3
		}
		return []string{q, f(iv.Mean), report.CI3(iv.Lo, iv.Hi), note}
	}
	share := func(x float64) string { return report.Percent1(x/inGain.Mean) + " of the in-sample gain" }
	t := report.Table{Slug: SelectionAwareSlug, Caption: "How much of the selected hybrid's gain survives its selection",
		Columns: []string{"Quantity", "Estimate", "95% CI", "Note"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight, report.AlignLeft},
		Rows: [][]string{
			row("In-sample Recall@5 of the selected hybrid", best.CI[metrics.Recall5], false, cfg.Name),
			row("In-sample Recall@5 of the best single retriever", single.CI[metrics.Recall5], false, single.Name),
			row("In-sample gain (conditional on the selection)", inGain.Interval, true, "the paper's kind of interval"),
			row(fmt.Sprintf("Nested CV (k = %d): out-of-fold Recall@5, selected hybrid", cv.K), oofH, false, fmt.Sprintf("full-data configuration chosen in %d of %d folds", same, cv.K)),
			row(fmt.Sprintf("Nested CV (k = %d): out-of-fold Recall@5, selected single", cv.K), oofS, false, ""),
			row("Nested CV: out-of-fold gain", oofGain.Interval, true, share(oofGain.Mean)),
			row("Selection-aware bootstrap: in-resample gain", experiment.Interval{Mean: inM, Lo: inLo, Hi: inHi}, true, selectionBootstrapOf),
			row("Selection-aware bootstrap: out-of-bag gain", experiment.Interval{Mean: oobM, Lo: oobLo, Hi: oobHi}, true, share(oobM)+"; scored on the questions each resample left out"),
			row("Table 5: best − "+single.Name, t5[0].Interval, true, "p = "+pCell(t5[0].P)+", Holm p = "+pCell(t5[0].Holm)),
			row("Table 5: best − S-hybrid ("+sh.Name+")", t5[1].Interval, true, "p = "+pCell(t5[1].P)+", Holm p = "+pCell(t5[1].Holm)),
		},
		Notes: []string{
			fmt.Sprintf("Nested CV: questions assigned to %d folds by a seeded permutation (PCG, seed %d, position perm[i] → fold i mod k); on each fold the 126 configurations and the five single retrievers are selected by the paper's rule on the other folds and scored on it. Nothing is fitted, so the inner selection is the training-fold mean.", cv.K, cv.Seed),
			fmt.Sprintf("Selection-aware bootstrap: in each of the B = %d resamples (seed %d) both selections are redone on the drawn questions; the in-resample gain scores them there, the out-of-bag gain on the questions not drawn (about 37%%). Intervals of these rows are percentiles of the resample values.", sb.B, s.Protocol.Seed),
			"Table 5 rows: the paper's two paired comparisons with their bootstrap p-values and Holm's correction across the two. " + bootstrapWords(s) + ".",
		}}
	return t, nil
}
