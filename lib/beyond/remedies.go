package beyond

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/retrieval"
)

// Weights of the remedies that AggregateRemedies applies to the selected
// hybrid, read off the grid 0.00, 0.05, …, 1.00 on the same questions by
// one rule (exploratory and in-sample, like the paper's β): the highest
// aggregate Recall@5 among weights whose overall Recall@5 is at least the
// hybrid's, the first in ascending order on ties. On data/synthetic that is
// λ = 0.90 (aggregate 0.279 vs 0.260) and γ = 0.15 (0.265); notebook 06 shows
// both grids.
const (
	RemedyLambda = 0.90 // MMR weight λ of retrieval.RemedyMMR
	RemedyGamma  = 0.15 // unit weight γ of retrieval.RemedyPeriod
)

// AggregateMetrics are the metrics of the aggregate-question comparison: the
// cutoffs of the paper's Top-K sensitivity analysis and Success@5.
var AggregateMetrics = []string{metrics.Recall5, metrics.Recall10, metrics.Recall20, metrics.Success5}

// RemedyRow is one method on one question type (or analysis.Overall).
type RemedyRow struct {
	Type      string
	Questions int
	Method    string // retriever name
	// Scores maps each of AggregateMetrics to its mean and percentile
	// interval over the type's questions.
	Scores map[string]experiment.Interval
	// Diffs maps each of AggregateMetrics to the paired difference method −
	// base over the same resamples; nil for the base itself.
	Diffs map[string]experiment.Interval
}

// RemedyNames returns the retriever names the comparison evaluates, base
// first: the base, then retrieval.RemedyMMR at RemedyLambda and
// retrieval.RemedyPeriod at RemedyGamma over it.
func RemedyNames(base string) []string {
	return []string{
		base,
		retrieval.RemedyMMR + ":" + base + "@" + fusion.FormatBeta(RemedyLambda),
		retrieval.RemedyPeriod + ":" + base + "@" + fusion.FormatBeta(RemedyGamma),
	}
}

// CompareRemedies evaluates names (a base first, then methods compared with
// it) on AggregateMetrics over the questions and retrievers of o's Setup, under its
// protocol otherwise (top RunDepth runs, B resamples from Seed), overall and
// per question type. Overall rows use one
// B × n matrix shared by every method; each type draws its own matrix of the
// type's size from the same seed (bootstrap.ByType's rule), shared by every
// method, so differences are paired within a type too. Rows come by type
// (analysis.Overall first, then metrics.Result.TypeOrder), methods in the
// order of names within a type.
func CompareRemedies(o *experiment.Outcome, names []string) ([]RemedyRow, error) {
	base := o.Setup
	if len(names) == 0 {
		return nil, fmt.Errorf("compare remedies: no retriever names")
	}
	p := base.Protocol
	p.Metrics = AggregateMetrics
	setup := &experiment.Setup{Questions: base.Questions, Qrels: base.Qrels, Builder: base.Builder, Protocol: p}
	evs, err := setup.EvaluateAll(names)
	if err != nil {
		return nil, err
	}
	res := evs[0].Result
	types := append([]string{analysis.Overall}, res.TypeOrder...)
	var rows []RemedyRow
	for _, typ := range types {
		idx := make([]int, len(res.QIDs))
		for i := range idx {
			idx[i] = i
		}
		if typ != analysis.Overall {
			idx = res.TypeIndices(typ)
		}
		ix := bootstrap.NewIndices(p.B, len(idx), p.Seed)
		sub := func(ev *experiment.Evaluation, metric string) []float64 {
			x := ev.Result.Scores(metric)
			out := make([]float64, len(idx))
			for j, i := range idx {
				out[j] = x[i]
			}
			return out
		}
		for k, ev := range evs {
			row := RemedyRow{Type: typ, Questions: len(idx), Method: ev.Name, Scores: map[string]experiment.Interval{}}
			if k > 0 {
				row.Diffs = map[string]experiment.Interval{}
			}
			for _, m := range AggregateMetrics {
				mean, lo, hi := ix.MeanCI(sub(ev, m), p.Level)
				row.Scores[m] = experiment.Interval{Mean: mean, Lo: lo, Hi: hi}
				if k > 0 {
					d, lo, hi := ix.PairedDiffCI(sub(ev, m), sub(evs[0], m), p.Level)
					row.Diffs[m] = experiment.Interval{Mean: d, Lo: lo, Hi: hi}
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}
