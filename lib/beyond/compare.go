package beyond

import (
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

// Overall labels rows over all evaluated questions.
const Overall = analysis.Overall

// Diff is a paired difference a − b of one metric with its interval, its
// two-sided bootstrap p-value and that p-value Holm-adjusted within its
// family.
type Diff struct {
	experiment.Interval
	P, Holm float64
}

// Family compares methods with a reference on one question subset: every
// method's mean and interval of each metric, and the paired difference of
// DiffMetric from the reference with Holm's correction over the methods
// other than the reference.
type Family struct {
	Type      string // Overall or a question type
	Questions int
	Methods   []string
	Ref       int                              // index of the reference in Methods
	Scores    []map[string]experiment.Interval // by method, then metric
	Diffs     []*Diff                          // by method; nil for the reference
}

// CompareOn builds a Family under p over the evaluations' common questions,
// or over the questions of type typ (Overall: all): every metric of
// p.Metrics with its p.Level interval, and the paired difference of
// p.SelectionMetric from evs[ref]. Resamples: a fresh p.B × n matrix of the
// subset's size from p.Seed (lib/bootstrap's rule for subsets), shared by
// every method. Every evaluation must hold the same QIDs in the same order
// and every metric of p.Metrics.
func CompareOn(evs []*experiment.Evaluation, ref int, typ string, p experiment.Protocol) (*Family, error) {
	mets, diffMetric, level := p.Metrics, p.SelectionMetric, p.Level
	if len(evs) == 0 || ref < 0 || ref >= len(evs) {
		return nil, fmt.Errorf("compare: reference %d of %d evaluations", ref, len(evs))
	}
	base := evs[ref].Result
	for _, ev := range evs {
		if !slices.Equal(ev.Result.QIDs, base.QIDs) {
			return nil, fmt.Errorf("compare: %s and %s were evaluated on different questions", ev.Name, evs[ref].Name)
		}
	}
	idx := allIndices(len(base.QIDs))
	if typ != Overall {
		idx = base.TypeIndices(typ)
	}
	f := &Family{Type: typ, Questions: len(idx), Ref: ref}
	ix := bootstrap.NewIndices(p.B, len(idx), p.Seed)
	var ps []float64
	var at []int
	for i, ev := range evs {
		f.Methods = append(f.Methods, ev.Name)
		sc := map[string]experiment.Interval{}
		for _, m := range mets {
			x := ev.Result.Scores(m)
			if x == nil {
				return nil, fmt.Errorf("compare: %s has no %s", ev.Name, m)
			}
			sc[m] = meanCI(ix, Subset(x, idx), level)
		}
		f.Scores = append(f.Scores, sc)
		f.Diffs = append(f.Diffs, nil)
		if i == ref {
			continue
		}
		d := PairedDiff(ix, Subset(ev.Result.Scores(diffMetric), idx), Subset(base.Scores(diffMetric), idx), level)
		f.Diffs[i] = &d
		ps, at = append(ps, d.P), append(at, i)
	}
	for j, h := range bootstrap.Holm(ps) {
		f.Diffs[at[j]].Holm = h
	}
	return f, nil
}

// PairedDiff is the paired difference a − b on ix's resamples with its
// two-sided p-value (Holm left 0 for the caller's family).
func PairedDiff(ix *bootstrap.Indices, a, b []float64, level float64) Diff {
	if len(a) == 0 {
		return Diff{}
	}
	d, lo, hi := ix.PairedDiffCI(a, b, level)
	return Diff{Interval: experiment.Interval{Mean: d, Lo: lo, Hi: hi}, P: ix.PairedP(a, b)}
}

// HolmAll sets the Holm field of each diff, the family being all of them.
func HolmAll(ds []*Diff) {
	ps := make([]float64, len(ds))
	for i, d := range ds {
		ps[i] = d.P
	}
	for i, h := range bootstrap.Holm(ps) {
		ds[i].Holm = h
	}
}

func meanCI(ix *bootstrap.Indices, x []float64, level float64) experiment.Interval {
	if len(x) == 0 {
		return experiment.Interval{}
	}
	m, lo, hi := ix.MeanCI(x, level)
	return experiment.Interval{Mean: m, Lo: lo, Hi: hi}
}

// Subset returns x at the positions idx.
func Subset(x []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for j, i := range idx {
		out[j] = x[i]
	}
	return out
}

func allIndices(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// mean is metrics.Mean, named here for the selection code.
func mean(x []float64) float64 { return metrics.Mean(x) }

// NewIndices is the p.B × n resample matrix drawn from p.Seed
// (bootstrap.NewIndices), with n raised to at least 1.
func NewIndices(p experiment.Protocol, n int) *bootstrap.Indices {
	return bootstrap.NewIndices(p.B, max(n, 1), p.Seed)
}
