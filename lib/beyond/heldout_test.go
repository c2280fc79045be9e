package beyond_test

import (
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
)

func TestHeldOutSummary(t *testing.T) {
	full := experiment.Config{Name: "hybrid:a", Pairing: "A"}
	h := &beyond.HeldOut{Full: full, Splits: []beyond.HeldOutSplit{
		{Hybrid: "hybrid:a", Pairing: "A", InSample: 0.8, HeldOut: 0.6, SingleHeldOut: 0.5},
		{Hybrid: "hybrid:b", Pairing: "A", InSample: 0.7, HeldOut: 0.7, SingleHeldOut: 0.7},
		{Hybrid: "hybrid:c", Pairing: "C", InSample: 0.9, HeldOut: 0.5, SingleHeldOut: 0.6},
	}}
	s := h.Summary()
	// Type-7 percentile of three sorted values x0 ≤ x1 ≤ x2 at p: h = 2p,
	// x0 + h·(x1 − x0) for p ≤ 0.5, x1 + (h − 1)·(x2 − x1) above.
	q := func(x0, x1, x2, p float64) float64 {
		if h := 2 * p; h <= 1 {
			return x0 + h*(x1-x0)
		} else {
			return x1 + (h-1)*(x2-x1)
		}
	}
	const tol = 1e-12 // the same expression, reassociated
	near := func(a, b float64) bool { return a-b < tol && b-a < tol }
	for _, c := range []struct {
		name       string
		got        experiment.Interval
		x0, x1, x2 float64
	}{
		{"in-sample", s.InSample, 0.7, 0.8, 0.9},
		{"held out", s.HeldOut, 0.5, 0.6, 0.7},
		{"optimism", s.Optimism, 0, 0.2, 0.4},
		{"gain", s.Gain, -0.1, 0, 0.1},
	} {
		mean := (c.x0 + c.x1 + c.x2) / 3
		if !near(c.got.Mean, mean) || !near(c.got.Lo, q(c.x0, c.x1, c.x2, 0.025)) || !near(c.got.Hi, q(c.x0, c.x1, c.x2, 0.975)) {
			t.Errorf("%s = %+v, want mean %v and type-7 2.5th/97.5th percentiles", c.name, c.got, mean)
		}
	}
	if s.Positive != 1 || s.SamePairing != 2 || s.SameConfig != 1 {
		t.Errorf("counts %d positive, %d same pairing, %d same configuration; want 1, 2, 1", s.Positive, s.SamePairing, s.SameConfig)
	}
}
