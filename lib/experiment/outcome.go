package experiment

import (
	"fmt"
	"sync"

	"github.com/linemem/linemem/lib/analysis"
)

// Outcome is the protocol run on one corpus: the Setup's single retrievers
// (Protocol.Singles, in that order), the linear sweep over Protocol.Pairings ×
// Protocol.Betas with its selected configuration, the best single retriever,
// and any sweep configuration scored with intervals. Each is computed on
// first use and kept, so the tables of a reproduction, a robustness seed and
// every analysis beyond the paper read the same runs, and the selection rule
// (analysis.FirstMax: the first maximum, in pairing then β order for the
// sweep and in Singles order for the single retrievers) is applied here
// only. An Outcome is safe for concurrent use; computations run one at a
// time.
type Outcome struct {
	Setup *Setup
	// Step, when set, runs each computation the first time it is needed
	// (the single retrievers, the sweep), named for a progress log; it must
	// call f and return its error.
	Step func(what string, f func() error) error

	mu      sync.Mutex
	singles []*Evaluation
	sweep   *Sweep
	scored  map[string]*Evaluation
}

// NewOutcome returns the Outcome of setup, nothing computed yet.
func NewOutcome(setup *Setup) *Outcome { return &Outcome{Setup: setup} }

// Protocol is the protocol the Outcome runs under: its Setup's.
func (o *Outcome) Protocol() Protocol { return o.Setup.Protocol }

func (o *Outcome) step(what string, f func() error) error {
	if o.Step == nil {
		return f()
	}
	return o.Step(what, f)
}

// Singles evaluates the protocol's single retrievers, in Protocol.Singles
// order, once.
func (o *Outcome) Singles() ([]*Evaluation, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.singlesLocked()
}

func (o *Outcome) singlesLocked() ([]*Evaluation, error) {
	if o.singles != nil {
		return o.singles, nil
	}
	var evs []*Evaluation
	err := o.step("single retrievers", func() (err error) {
		evs, err = o.Setup.EvaluateAll(o.Setup.Protocol.Singles)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, fmt.Errorf("outcome: the protocol has no single retrievers")
	}
	o.singles = evs
	return evs, nil
}

// SinglesDone reports whether the single retrievers have been evaluated, and
// if so how many questions were evaluated (those with primary gold).
func (o *Outcome) SinglesDone() (questions int, done bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.singles == nil {
		return 0, false
	}
	return len(o.singles[0].Result.QIDs), true
}

// Sweep runs the protocol's sweep (Setup.Sweep over Protocol.Pairings and
// Protocol.Betas), once.
func (o *Outcome) Sweep() (*Sweep, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sweepLocked()
}

func (o *Outcome) sweepLocked() (*Sweep, error) {
	if o.sweep != nil {
		return o.sweep, nil
	}
	p := o.Setup.Protocol
	var sw *Sweep
	err := o.step(fmt.Sprintf("hybrid sweep (%d pairings × %d β)", len(p.Pairings), len(p.Betas)), func() (err error) {
		sw, err = o.Setup.Sweep(p.Pairings, p.Betas)
		return err
	})
	if err != nil {
		return nil, err
	}
	o.sweep = sw
	return sw, nil
}

// Scored evaluates the fused run of a sweep configuration with intervals,
// once per configuration name. cfg may be any fused spec over one of the
// swept pairings (Sweep.FusedRun).
func (o *Outcome) Scored(cfg Config) (*Evaluation, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sw, err := o.sweepLocked()
	if err != nil {
		return nil, err
	}
	return o.scoredLocked(sw, cfg)
}

func (o *Outcome) scoredLocked(sw *Sweep, cfg Config) (*Evaluation, error) {
	if ev, ok := o.scored[cfg.Name]; ok {
		return ev, nil
	}
	ev, err := o.Setup.Score(cfg.Name, sw.FusedRun(cfg))
	if err != nil {
		return nil, err
	}
	if o.scored == nil {
		o.scored = map[string]*Evaluation{}
	}
	o.scored[cfg.Name] = ev
	return ev, nil
}

// Selected returns the configuration the sweep selected (the first maximum of
// Protocol.SelectionMetric) and its evaluation with intervals.
func (o *Outcome) Selected() (*Evaluation, Config, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sw, err := o.sweepLocked()
	if err != nil {
		return nil, Config{}, err
	}
	cfg := sw.SelectedConfig()
	ev, err := o.scoredLocked(sw, cfg)
	return ev, cfg, err
}

// BestOf returns the pairing labelled pairing at its best β (the first
// maximum of Protocol.SelectionMetric among its configurations) and its
// evaluation with intervals. A pairing the sweep did not run is an error.
func (o *Outcome) BestOf(pairing string) (*Evaluation, Config, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sw, err := o.sweepLocked()
	if err != nil {
		return nil, Config{}, err
	}
	cfg, ok := sw.BestOf(pairing, o.Setup.Protocol.SelectionMetric)
	if !ok {
		return nil, cfg, fmt.Errorf("outcome: no sweep configuration of pairing %s", pairing)
	}
	ev, err := o.scoredLocked(sw, cfg)
	return ev, cfg, err
}

// BestSingle returns the single retriever with the highest macro
// Protocol.SelectionMetric, the first in Singles order on ties
// (analysis.FirstMax).
func (o *Outcome) BestSingle() (*Evaluation, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	singles, err := o.singlesLocked()
	if err != nil {
		return nil, err
	}
	scores := make([]float64, len(singles))
	for i, ev := range singles {
		scores[i] = ev.Result.Mean[o.Setup.Protocol.SelectionMetric]
	}
	best, err := analysis.FirstMax(scores)
	if err != nil {
		return nil, err
	}
	return singles[best], nil
}

// Components scores the component runs of the swept pairing labelled
// pairing (BM25, then vector; top fusion.Depth each), as the sweep fused
// them.
func (o *Outcome) Components(pairing string) (sparse, vec *Evaluation, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	sw, err := o.sweepLocked()
	if err != nil {
		return nil, nil, err
	}
	p, err := o.Setup.Protocol.Pairing(pairing)
	if err != nil {
		return nil, nil, err
	}
	comp, ok := sw.Components[pairing]
	if !ok {
		return nil, nil, fmt.Errorf("outcome: pairing %s was not swept", pairing)
	}
	if sparse, err = o.Setup.Score(p.BM25.Name(), comp[0]); err != nil {
		return nil, nil, err
	}
	vec, err = o.Setup.Score(p.Vector.Name(), comp[1])
	return sparse, vec, err
}
