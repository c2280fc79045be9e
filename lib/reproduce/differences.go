package reproduce

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// Table 5 and Figure 4: the paired differences.
var (
	table5  = tableArtefact("table5", NeedsSingles|NeedsSweep, true, differencesTable)
	figure4 = figureArtefact("figure4", NeedsSingles|NeedsSweep, true, differencesFigure)
)

// differences returns the paired differences in the selection metric of
// paper Table 5 (Recall@5): the selected hybrid minus the best single
// retriever, and minus the summary hybrid at its best β.
func differences(s *Study) ([]experiment.Difference, []string, error) {
	best, bestCfg, err := s.Selected()
	if err != nil {
		return nil, nil, err
	}
	top, err := s.Outcome.BestSingle()
	if err != nil {
		return nil, nil, err
	}
	sh, shCfg, err := s.SummaryHybrid()
	if err != nil {
		return nil, nil, err
	}
	sel := s.Protocol.SelectionMetric
	d1, err := s.Setup.PairedDifference(best, top, sel)
	if err != nil {
		return nil, nil, err
	}
	d2, err := s.Setup.PairedDifference(best, sh, sel)
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

// differencesTable reports the paired-bootstrap differences (paper Table 5).
func differencesTable(s *Study) (report.Table, error) {
	diffs, labels, err := differences(s)
	if err != nil {
		return report.Table{}, err
	}
	t := report.Table{Number: 5, Slug: "paired_differences", Caption: "Bootstrap difference confidence intervals",
		Columns: []string{"Comparison", "Δ" + selectionLabel(s), levelWords(s.Protocol) + " CI", "Interpretation"},
		Notes:   []string{"Paired percentile bootstrap on the same resamples for both methods; conditional on the configuration selected on these questions."}}
	for i, d := range diffs {
		t.Rows = append(t.Rows, []string{labels[i], report.Signed3(d.Mean), report.CI3(d.Lo, d.Hi), interpretation(d)})
	}
	return t, nil
}

// differencesFigure plots the paired differences with their CIs.
func differencesFigure(s *Study) (Figure, error) {
	diffs, labels, err := differences(s)
	if err != nil {
		return Figure{}, err
	}
	short := figure4Labels(labels)
	items := make([]report.LabeledCI, len(diffs))
	for i, d := range diffs {
		items[i] = report.LabeledCI{Label: short[i], Value: d.Mean, Lo: d.Lo, Hi: d.Hi}
	}
	label := selectionLabel(s)
	p, err := report.DifferencesWithCI("Paired-bootstrap "+levelWords(s.Protocol)+" CIs of "+label+" differences (selection-conditioned)", "Δ"+label, items)
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
