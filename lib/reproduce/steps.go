package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/experiment"
)

// SummaryPairing is the pairing of the paper's auxiliary failure analysis
// (§7.3): summary_bm25 + summary_vector, at its best β.
const SummaryPairing = "S-BM25+S-Vec"

// TopKCutoffs are the cutoffs of the Top-K sensitivity analysis.
var TopKCutoffs = analysis.SensitivityCutoffs

// Singles evaluates the paper's five single retrievers (Table 3 order), once.
func (s *Study) Singles() ([]*experiment.Evaluation, error) {
	if s.singles != nil {
		return s.singles, nil
	}
	err := s.timed("single retrievers", func() error {
		evs, err := s.Setup.EvaluateAll(s.Protocol.Singles)
		s.singles = evs
		return err
	})
	return s.singles, err
}

// Sweep runs the 6 pairings × 21 β sweep, once.
func (s *Study) Sweep() (*experiment.Sweep, error) {
	if s.sweep != nil {
		return s.sweep, nil
	}
	err := s.timed("hybrid sweep (6 pairings × 21 β)", func() error {
		sw, err := s.Setup.Sweep(s.Protocol.Pairings, nil)
		s.sweep = sw
		return err
	})
	return s.sweep, err
}

// BestOfPairing evaluates a pairing at its best β (by Recall@5, first on
// ties), with intervals.
func (s *Study) BestOfPairing(label string) (*experiment.Evaluation, experiment.Config, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, experiment.Config{}, err
	}
	cfg, ok := sw.BestOf(label, s.Protocol.SelectionMetric)
	if !ok {
		return nil, cfg, fmt.Errorf("no sweep configuration of pairing %s", label)
	}
	ev, err := s.scoreConfig(sw, cfg)
	return ev, cfg, err
}

// Selected evaluates the configuration the sweep selected, with intervals.
func (s *Study) Selected() (*experiment.Evaluation, experiment.Config, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, experiment.Config{}, err
	}
	cfg := sw.SelectedConfig()
	ev, err := s.scoreConfig(sw, cfg)
	return ev, cfg, err
}

// scoreConfig evaluates a sweep configuration's fused run with intervals,
// once per configuration: tables, figures and the per-question file share it.
func (s *Study) scoreConfig(sw *experiment.Sweep, cfg experiment.Config) (*experiment.Evaluation, error) {
	if ev, ok := s.scored[cfg.Name]; ok {
		return ev, nil
	}
	ev, err := s.Setup.Score(cfg.Name, sw.FusedRun(cfg))
	if err != nil {
		return nil, err
	}
	if s.scored == nil {
		s.scored = map[string]*experiment.Evaluation{}
	}
	s.scored[cfg.Name] = ev
	return ev, nil
}

// SummaryHybrid evaluates summary_bm25 + summary_vector at its best β: the
// run of the paper's auxiliary failure analysis.
func (s *Study) SummaryHybrid() (*experiment.Evaluation, experiment.Config, error) {
	return s.BestOfPairing(SummaryPairing)
}

// components returns the component runs of a sweep pairing: BM25, vector.
func (s *Study) components(label string) (*experiment.Evaluation, *experiment.Evaluation, error) {
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
