package beyond

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

// HeldOutSplit is one random half split: the hybrid configuration and the
// single retriever that the paper's rule selects on one half, scored on the
// other.
type HeldOutSplit struct {
	// Select and Evaluate are positions in the evaluated questions
	// (metrics.Result.QIDs), ascending; Select holds ⌊n/2⌋ of them.
	Select, Evaluate []int
	Hybrid           string // the sweep configuration selected on Select
	Pairing          string // its pairing
	Single           string // the best single retriever on Select
	// Macro selection metric (Recall@5) of Hybrid on Select (in-sample) and
	// on Evaluate (held out), and of Single on Evaluate.
	InSample, HeldOut, SingleHeldOut float64
}

// Optimism is InSample − HeldOut: how much selecting on a half flatters the
// chosen configuration on that half.
func (h HeldOutSplit) Optimism() float64 { return h.InSample - h.HeldOut }

// Gain is HeldOut − SingleHeldOut: the held-out advantage of the selected
// hybrid over the selected single retriever.
func (h HeldOutSplit) Gain() float64 { return h.HeldOut - h.SingleHeldOut }

// HeldOut is the result of HeldOutSelection.
type HeldOut struct {
	Metric    string // the selection metric every split selects and scores by
	Seed      uint64
	Questions int               // evaluated questions n
	Full      experiment.Config // selected on all n questions (in-sample)
	Splits    []HeldOutSplit
}

// HeldOutSelection measures the selection optimism of paper §8.1 and §9.1
// (pairing and β chosen and reported on the same questions) for o's sweep
// and single retrievers, selected by metric, the protocol's selection
// metric (the paper's Recall@5). It shuffles the
// n evaluated questions splits times with one generator,
// rand.New(rand.NewPCG(seed, seed)), split r being its r-th Perm(n): the
// first ⌊n/2⌋ positions form the selection half, the rest the held-out half.
// On the selection half it applies the paper's rule (analysis.FirstMax:
// first configuration in pairing then β order attaining the maximum of
// metric) to the sweep's configurations, and the same rule to the single
// retrievers; both are then scored on the held-out half. Scores are the
// per-question vectors of metric the sweep and the single runs already hold,
// averaged with metrics.Mean over each half (a question's score depends on
// its own ranking only), so nothing is searched or fused again. The same
// seed always gives the same splits, and the first k splits do not depend on
// how many follow.
//
// Caveats: a half has n/2 questions, so selection on it is noisier than on
// all n and its optimism overstates that of the full-data selection; the
// splits reuse the same questions, so percentiles over splits describe
// split-to-split variation, not a confidence interval; and the held-out
// halves are drawn from the same question set, not an independent one, so
// this approximates the confirmation the paper asks for without replacing
// it.
func HeldOutSelection(o *experiment.Outcome, splits int, seed uint64) (*HeldOut, error) {
	if splits < 1 {
		return nil, fmt.Errorf("held-out selection: %d splits, want at least 1", splits)
	}
	sw, err := o.Sweep()
	if err != nil {
		return nil, err
	}
	singles, err := o.Singles()
	if err != nil {
		return nil, err
	}
	metric := o.Protocol().SelectionMetric
	full := sw.SelectedConfig()
	n := len(full.Result.QIDs)
	if n < 2 {
		return nil, fmt.Errorf("held-out selection: %d evaluated questions, want at least 2", n)
	}
	for _, ev := range singles {
		if !slices.Equal(ev.Result.QIDs, full.Result.QIDs) {
			return nil, fmt.Errorf("held-out selection: %s was evaluated on other questions than the sweep", ev.Name)
		}
	}
	h := &HeldOut{Metric: metric, Seed: seed, Questions: n, Full: full}
	rng := rand.New(rand.NewPCG(seed, seed))
	for range splits {
		perm := rng.Perm(n)
		sel, out := slices.Sorted(slices.Values(perm[:n/2])), slices.Sorted(slices.Values(perm[n/2:]))
		hybrid, err := selectOn(sw.Configs, metric, sel)
		if err != nil {
			return nil, err
		}
		single, err := selectOn(singleConfigs(singles), metric, sel)
		if err != nil {
			return nil, err
		}
		h.Splits = append(h.Splits, HeldOutSplit{
			Select: sel, Evaluate: out,
			Hybrid: hybrid.Name, Pairing: hybrid.Pairing, Single: single.Name,
			InSample: meanOver(hybrid.Result.Scores(metric), sel), HeldOut: meanOver(hybrid.Result.Scores(metric), out), SingleHeldOut: meanOver(single.Result.Scores(metric), out),
		})
	}
	return h, nil
}

// singleConfigs wraps single retrievers' evaluations as configurations,
// so one selection rule chooses among both.
func singleConfigs(evs []*experiment.Evaluation) []experiment.Config {
	cs := make([]experiment.Config, len(evs))
	for i, ev := range evs {
		cs[i] = experiment.Config{Name: ev.Name, Result: ev.Result}
	}
	return cs
}

// selectOn applies the selection rule (analysis.FirstMax) to the
// configurations' mean of metric over the question positions idx.
func selectOn(cs []experiment.Config, metric string, idx []int) (experiment.Config, error) {
	scores := make([]float64, len(cs))
	for i, c := range cs {
		scores[i] = meanOver(c.Result.Scores(metric), idx)
	}
	best, err := analysis.FirstMax(scores)
	if err != nil {
		return experiment.Config{}, err
	}
	return cs[best], nil
}

// meanOver is metrics.Mean of x at the positions idx.
func meanOver(x []float64, idx []int) float64 {
	sub := make([]float64, len(idx))
	for i, j := range idx {
		sub[i] = x[j]
	}
	return metrics.Mean(sub)
}

// HeldOutSummary summarises the splits: each quantity's mean over splits
// with its 2.5th and 97.5th percentiles over splits (bootstrap.Quantile7),
// and counts of splits.
type HeldOutSummary struct {
	InSample, HeldOut, Optimism, SingleHeldOut, Gain experiment.Interval
	// Positive counts splits with Gain > 0; SamePairing and SameConfig those
	// selecting the full-data pairing and configuration.
	Positive, SamePairing, SameConfig int
}

// Summary computes the HeldOutSummary of h's splits.
func (h *HeldOut) Summary() HeldOutSummary {
	var in, out, opt, single, gain []float64
	var s HeldOutSummary
	for _, sp := range h.Splits {
		in, out, opt = append(in, sp.InSample), append(out, sp.HeldOut), append(opt, sp.Optimism())
		single, gain = append(single, sp.SingleHeldOut), append(gain, sp.Gain())
		if sp.Gain() > 0 {
			s.Positive++
		}
		if sp.Pairing == h.Full.Pairing {
			s.SamePairing++
		}
		if sp.Hybrid == h.Full.Name {
			s.SameConfig++
		}
	}
	s.InSample, s.HeldOut, s.Optimism = percentiles(in), percentiles(out), percentiles(opt)
	s.SingleHeldOut, s.Gain = percentiles(single), percentiles(gain)
	return s
}

// percentiles returns the mean of x and its 2.5th and 97.5th percentiles
// (bootstrap.Quantile7).
func percentiles(x []float64) experiment.Interval {
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	return experiment.Interval{Mean: metrics.Mean(x), Lo: bootstrap.Quantile7(sorted, 0.025), Hi: bootstrap.Quantile7(sorted, 0.975)}
}
