package beyond

import (
	"fmt"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/retrieval"
)

// FusionRow is the selected pair fused by one rule.
type FusionRow struct {
	Rule string // what the row fuses, e.g. "reciprocal rank fusion, K = 60"
	Eval *experiment.Evaluation
	// Diff is the paired difference in the selection metric from the linear
	// row; nil on the linear row itself.
	Diff *experiment.Difference
}

// FusionComparison is the selected pairing fused by the paper's linear
// min–max rule and by two alternatives.
type FusionComparison struct {
	Selected experiment.Config // the configuration the linear sweep selected
	// Rows: linear min–max at the selected β (the paper's), RRF (K = 60),
	// z-score at the selected β, z-score at its own best β.
	Rows []FusionRow
	// Linear and ZScore are the pairing's configurations at every β of the
	// protocol's grid under the two weighted rules.
	Linear, ZScore []experiment.Config
}

// CompareFusion fuses the pairing of the configuration that o's linear sweep
// selected three ways (package fusion): the paper's linear min–max hybrid
// at the selected β (o's selected evaluation with intervals); reciprocal
// rank fusion, Σ 1/(60 + rank), which has no weight to tune; and the z-score
// linear hybrid (1 − β)·vec_z + β·bm25_z at every β of the grid, reported at
// the selected β and at its own best β (first maximum of the selection
// metric). The alternatives are sweeps of o's Setup (Setup.SweepFusion) over
// the same component runs, so nothing is searched again.
// Differences are paired against the linear row.
//
// Caveats: every row is conditional on the pairing the linear sweep chose,
// on the same questions; the linear row is that selection's in-sample
// maximum, which favours it, and the z-score row at its own best β has the
// same in-sample advantage while RRF has none. A z-score chunk missing from
// one list gets that list's mean, not its minimum, so the two weighted rules
// need not peak at the same β.
func CompareFusion(o *experiment.Outcome) (*FusionComparison, error) {
	setup := o.Setup
	sw, err := o.Sweep()
	if err != nil {
		return nil, err
	}
	linear, cfg, err := o.Selected()
	if err != nil {
		return nil, err
	}
	p, err := setup.Protocol.Pairing(cfg.Pairing)
	if err != nil {
		return nil, err
	}
	c := &FusionComparison{Selected: cfg}
	for _, sc := range sw.Configs {
		if sc.Pairing == cfg.Pairing {
			c.Linear = append(c.Linear, sc)
		}
	}
	pairing := []retrieval.Pairing{p}
	zsw, err := setup.SweepFusion(retrieval.FusionZScore, pairing, nil)
	if err != nil {
		return nil, err
	}
	c.ZScore = zsw.Configs
	rsw, err := setup.SweepFusion(retrieval.FusionRRF, pairing, nil)
	if err != nil {
		return nil, err
	}
	score := func(w *experiment.Sweep, cfg experiment.Config) (*experiment.Evaluation, error) {
		return setup.Score(cfg.Name, w.FusedRun(cfg))
	}
	rrf, err := score(rsw, rsw.SelectedConfig())
	if err != nil {
		return nil, err
	}
	zAtSelCfg, ok := zsw.Config(retrieval.Spec{Fusion: retrieval.FusionZScore, BM25: p.BM25, Vector: p.Vector, Beta: cfg.Beta}.String())
	if !ok {
		return nil, fmt.Errorf("fusion comparison: β = %s is not on the grid", fusion.FormatBeta(cfg.Beta))
	}
	zAtSel, err := score(zsw, zAtSelCfg)
	if err != nil {
		return nil, err
	}
	zBest, err := score(zsw, zsw.SelectedConfig())
	if err != nil {
		return nil, err
	}
	c.Rows = []FusionRow{
		{Rule: "linear min–max, selected β (paper)", Eval: linear},
		{Rule: "reciprocal rank fusion, K = 60", Eval: rrf},
		{Rule: "z-score, the selected β", Eval: zAtSel},
		{Rule: "z-score, its own best β", Eval: zBest},
	}
	for i := 1; i < len(c.Rows); i++ {
		d, err := setup.PairedDifference(c.Rows[i].Eval, linear, setup.Protocol.SelectionMetric)
		if err != nil {
			return nil, err
		}
		c.Rows[i].Diff = &d
	}
	return c, nil
}
