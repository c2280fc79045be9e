package robustness

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/synth"
)

// DefaultSeeds is the seed list of the committed results/robustness_seeds.*
// files (`make robustness`).
const DefaultSeeds = "1-20"

// MaxDefaultWorkers caps the default number of seeds run at once: each
// small-scale seed holds its corpus, indexes and vectors (a few hundred MB
// at most), so four fit a laptop.
const MaxDefaultWorkers = 4

// Preparer turns a data folder laid out like data/synthetic into an
// evaluation Setup over a database at dbPath (created if missing, reused when
// present). The Closer releases the database.
type Preparer func(dataDir, dbPath string) (*experiment.Setup, io.Closer, error)

// Options configure a multi-seed run.
type Options struct {
	Seeds   []uint64
	Scale   string   // synth scale; synth.ScaleSmall when ""
	Workers int      // seeds run at once; min(GOMAXPROCS, MaxDefaultWorkers) when ≤ 0
	Prepare Preparer // required
	// WorkDir holds one folder per seed, seed-N/ with data/ and linemem.db,
	// kept so that a rerun reuses the databases (ingest skips unchanged
	// sources, stored vectors are not recomputed). "" uses temporary folders
	// removed after each seed.
	WorkDir string
	Log     io.Writer // progress, one line per seed; nil discards
}

func (o Options) scale() string { return cmp.Or(o.Scale, synth.ScaleSmall) }

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return max(1, min(runtime.GOMAXPROCS(0), MaxDefaultWorkers))
}

// Estimate is one run's macro means with their question-level intervals, by
// metric.
type Estimate struct {
	Name    string                         `json:"name"`
	Metrics map[string]experiment.Interval `json:"metrics"`
}

// Hybrid is the configuration the sweep selected on one seed.
type Hybrid struct {
	Estimate
	Pairing string  `json:"pairing"`
	Beta    float64 `json:"beta"`
}

// SeedResult is the paper protocol's outcome on one seed.
type SeedResult struct {
	Seed      uint64 `json:"seed"`
	Chunks    int    `json:"chunks"`
	Questions int    `json:"questions"` // evaluated (with primary gold)
	// Singles are the protocol's single retrievers, in that order.
	Singles  []Estimate `json:"singles"`
	Selected Hybrid     `json:"selected"`
	// BestSingle is the single retriever with the highest
	// the protocol's selection metric, the first in Singles order on ties.
	BestSingle string `json:"best_single"`
	// Gain is the paired difference Selected − BestSingle by metric, with
	// its question-level interval over the shared resamples.
	Gain map[string]experiment.Interval `json:"gain"`
	// SelectedByType is the selected hybrid's SelectionMetric per question
	// type (types with at least one evaluated question).
	SelectedByType map[string]float64 `json:"selected_by_type"`
}

// Single returns the estimate of the single retriever called name.
func (r SeedResult) Single(name string) (Estimate, bool) {
	for _, e := range r.Singles {
		if e.Name == name {
			return e, true
		}
	}
	return Estimate{}, false
}

// Run runs RunSeed for every seed of o, o.workers() at a time, and returns
// the results ascending by seed. It stops at the first failing seed and
// returns its error; duplicate seeds are an error.
func Run(o Options) ([]SeedResult, error) {
	if o.Prepare == nil {
		return nil, errors.New("robustness: no Preparer")
	}
	seeds := slices.Clone(o.Seeds)
	slices.Sort(seeds)
	if len(seeds) == 0 {
		return nil, errors.New("robustness: no seeds")
	}
	if i := firstDuplicate(seeds); i >= 0 {
		return nil, fmt.Errorf("robustness: seed %d given twice", seeds[i])
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	var mu sync.Mutex
	done := 0
	results := make([]SeedResult, len(seeds))
	var g errgroup.Group
	g.SetLimit(o.workers())
	for i, seed := range seeds {
		g.Go(func() error {
			start := time.Now()
			r, metric, err := runSeed(seed, o)
			if err != nil {
				return fmt.Errorf("seed %d: %w", seed, err)
			}
			results[i] = r
			mu.Lock()
			done++
			fmt.Fprintf(log, "robustness: [%d/%d] seed %d: selected %s, %s %.3f (%s)\n",
				done, len(seeds), seed, r.Selected.Name, metric, r.Selected.Metrics[metric].Mean, time.Since(start).Round(time.Millisecond))
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return results, nil
}

func firstDuplicate(sorted []uint64) int {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return i
		}
	}
	return -1
}

// RunSeed generates the synthetic corpus of seed at o's scale, prepares it
// with o.Prepare and runs the paper protocol on it (see the package doc).
func RunSeed(seed uint64, o Options) (SeedResult, error) {
	r, _, err := runSeed(seed, o)
	return r, err
}

// runSeed is RunSeed that also returns the selection metric of the
// prepared Setup's protocol.
func runSeed(seed uint64, o Options) (SeedResult, string, error) {
	if o.Prepare == nil {
		return SeedResult{}, "", errors.New("robustness: no Preparer")
	}
	dir := ""
	if o.WorkDir != "" {
		dir = filepath.Join(o.WorkDir, fmt.Sprintf("seed-%d", seed))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return SeedResult{}, "", err
		}
	} else {
		tmp, err := os.MkdirTemp("", fmt.Sprintf("linemem-seed-%d-", seed))
		if err != nil {
			return SeedResult{}, "", err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	ds, err := synth.Generate(synth.Config{Seed: seed, Scale: o.scale()})
	if err != nil {
		return SeedResult{}, "", err
	}
	dataDir := filepath.Join(dir, "data")
	if err := ds.WriteDir(dataDir); err != nil {
		return SeedResult{}, "", err
	}
	setup, closer, err := o.Prepare(dataDir, filepath.Join(dir, "linemem.db"))
	if err != nil {
		return SeedResult{}, "", err
	}
	defer closer.Close()
	r, err := Protocol(setup)
	if err != nil {
		return SeedResult{}, "", err
	}
	r.Seed, r.Chunks = seed, ds.Stats.Chunks
	return r, setup.Protocol.SelectionMetric, nil
}

// Protocol runs the paper protocol on one prepared corpus
// (experiment.Outcome): the single retrievers, the sweep and its selection,
// the selected hybrid scored with intervals and its paired difference from
// the best single retriever. Seed and Chunks of the result are left for the
// caller.
func Protocol(setup *experiment.Setup) (SeedResult, error) {
	o := experiment.NewOutcome(setup)
	singles, err := o.Singles()
	if err != nil {
		return SeedResult{}, err
	}
	sel, cfg, err := o.Selected()
	if err != nil {
		return SeedResult{}, err
	}
	best, err := o.BestSingle()
	if err != nil {
		return SeedResult{}, err
	}
	r := SeedResult{
		Questions:      len(sel.Result.QIDs),
		Selected:       Hybrid{Estimate: estimate(sel), Pairing: cfg.Pairing, Beta: cfg.Beta},
		BestSingle:     best.Name,
		Gain:           map[string]experiment.Interval{},
		SelectedByType: map[string]float64{},
	}
	for _, ev := range singles {
		r.Singles = append(r.Singles, estimate(ev))
	}
	for _, m := range sel.Result.Metrics {
		d, err := setup.PairedDifference(sel, best, m)
		if err != nil {
			return SeedResult{}, err
		}
		r.Gain[m] = d.Interval
	}
	for _, t := range sel.Result.TypeOrder {
		r.SelectedByType[t] = sel.Result.ByType[t].Mean[setup.Protocol.SelectionMetric]
	}
	return r, nil
}

func estimate(ev *experiment.Evaluation) Estimate {
	e := Estimate{Name: ev.Name, Metrics: make(map[string]experiment.Interval, len(ev.CI))}
	for m, ci := range ev.CI {
		e.Metrics[m] = ci
	}
	return e
}
