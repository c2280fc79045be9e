package bootstrap

import (
	"math"
	"slices"
)

// PairedP returns the two-sided percentile-bootstrap p-value of the paired
// difference a − b over the resamples of ix:
//
//	d*_r = mean over resample r of (a[i] − b[i])
//	p    = min(1, 2 · min(#{r: d*_r ≤ 0}, #{r: d*_r ≥ 0}) / B)
//
// the smallest two-sided level at which the percentile interval excludes 0
// (Efron & Tibshirani 1993, §15.4). A difference that is 0 on every
// question gives p = 1. It panics when the vectors' lengths differ from N();
// with n = 0 it returns NaN.
func (ix *Indices) PairedP(a, b []float64) float64 {
	if len(a) != len(b) {
		panic("bootstrap: paired vectors differ in length")
	}
	if ix.n == 0 {
		return math.NaN()
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	le, ge := 0, 0
	for _, m := range ix.Means(d) {
		if m <= 0 {
			le++
		}
		if m >= 0 {
			ge++
		}
	}
	return min(1, 2*float64(min(le, ge))/float64(ix.b))
}

// Holm returns Holm's (1979) step-down adjusted p-values, in the order of p:
// with the m p-values sorted ascending, p_(1) ≤ … ≤ p_(m),
//
//	adj_(i) = min(1, max_{j ≤ i} (m − j + 1) · p_(j))
//
// which controls the family-wise error rate at any level α when the
// hypothesis of adj_(i) ≤ α is rejected. Equal p-values keep their input
// order when sorted. A NaN p-value is returned as NaN and not counted in m.
func Holm(p []float64) []float64 {
	out := make([]float64, len(p))
	var order []int
	for i, v := range p {
		if math.IsNaN(v) {
			out[i] = math.NaN()
			continue
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case p[i] < p[j]:
			return -1
		case p[i] > p[j]:
			return 1
		}
		return 0
	})
	m, running := len(order), 0.0
	for rank, i := range order {
		running = max(running, min(1, float64(m-rank)*p[i]))
		out[i] = running
	}
	return out
}
