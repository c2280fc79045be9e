package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/experiment"
)

// SummaryPairing is the pairing of the paper's auxiliary failure analysis
// (§7.3): summary_bm25 + summary_vector, at its best β.
const SummaryPairing = "S-BM25+S-Vec"

// TopKCutoffs are the cutoffs of the Top-K sensitivity analysis.
var TopKCutoffs = analysis.SensitivityCutoffs

// Singles evaluates the protocol's single retrievers (Table 3 order), once.
func (s *Study) Singles() ([]*experiment.Evaluation, error) {
	return cached(s, "singles", func() (evs []*experiment.Evaluation, err error) {
		err = s.timed("single retrievers", func() error {
			evs, err = s.Setup.EvaluateAll(s.Protocol.Singles)
			return err
		})
		return evs, err
	})
}

// Sweep runs the protocol's pairings × β sweep, once.
func (s *Study) Sweep() (*experiment.Sweep, error) {
	return cached(s, "sweep", func() (sw *experiment.Sweep, err error) {
		step := fmt.Sprintf("hybrid sweep (%d pairings × %d β)", len(s.Protocol.Pairings), len(s.Protocol.Betas))
		err = s.timed(step, func() error {
			sw, err = s.Setup.Sweep(s.Protocol.Pairings, nil)
			return err
		})
		return sw, err
	})
}

// BestOfPairing evaluates a pairing at its best β (by the protocol's
// selection metric, first on ties), with intervals.
func (s *Study) BestOfPairing(label string) (*experiment.Evaluation, experiment.Config, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, experiment.Config{}, err
	}
	cfg, ok := sw.BestOf(label, s.Protocol.SelectionMetric)
	if !ok {
		return nil, cfg, fmt.Errorf("no sweep configuration of pairing %s", label)
	}
	ev, err := scoreConfig(s, sw, cfg)
	return ev, cfg, err
}

// Selected evaluates the configuration the sweep selected, with intervals.
func (s *Study) Selected() (*experiment.Evaluation, experiment.Config, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, experiment.Config{}, err
	}
	cfg := sw.SelectedConfig()
	ev, err := scoreConfig(s, sw, cfg)
	return ev, cfg, err
}

// SummaryHybrid evaluates summary_bm25 + summary_vector at its best β: the
// run of the paper's auxiliary failure analysis.
func (s *Study) SummaryHybrid() (*experiment.Evaluation, experiment.Config, error) {
	return s.BestOfPairing(SummaryPairing)
}

// scoreConfig evaluates a sweep configuration's fused run with intervals,
// once per configuration: tables, figures and the per-question file share it.
func scoreConfig(s *Study, sw *experiment.Sweep, cfg experiment.Config) (*experiment.Evaluation, error) {
	return cached(s, "scored "+cfg.Name, func() (*experiment.Evaluation, error) {
		return s.Setup.Score(cfg.Name, sw.FusedRun(cfg))
	})
}

// components returns the component runs of a sweep pairing: BM25, vector.
func components(s *Study, label string) (*experiment.Evaluation, *experiment.Evaluation, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, nil, err
	}
	p, err := s.Protocol.Pairing(label)
	if err != nil {
		return nil, nil, err
	}
	comp := sw.Components[label]
	sparse, err := s.Setup.Score(p.BM25.Name(), comp[0])
	if err != nil {
		return nil, nil, err
	}
	vec, err := s.Setup.Score(p.Vector.Name(), comp[1])
	return sparse, vec, err
}

// bestSingle returns the single retriever with the highest score under the
// protocol's selection metric (first on ties, Table 3 order).
func bestSingle(s *Study) (*experiment.Evaluation, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	cs := make([]beyond.Candidate, len(singles))
	for i, ev := range singles {
		cs[i] = beyond.Candidate{Name: ev.Name, Scores: ev.Result.Scores(s.Protocol.SelectionMetric)}
	}
	return singles[beyond.SelectFirstMax(cs, allPositions(len(singles[0].Result.QIDs)))], nil
}

func allPositions(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// evaluated is the number of questions evaluated (those with primary gold)
// once the single retrievers ran, else the number of questions.
func evaluated(s *Study) int {
	if v, ok := s.cache["singles"]; ok {
		return len(v.([]*experiment.Evaluation)[0].Result.QIDs)
	}
	return len(s.Questions)
}
