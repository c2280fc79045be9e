// Package experiment runs the paper's evaluation protocol over one corpus:
// every retriever's top-RunDepth run for every question, metrics per question
// and macro, percentile-bootstrap intervals from one shared index matrix, and
// the 6 pairings × 21 β hybrid sweep with the spec §10 selection rule.
//
// It glues lib/retrieval (rankings), lib/metrics (scores), lib/bootstrap
// (intervals) and lib/analysis (selection) together, so the CLI, `reproduce`
// and the notebooks all evaluate the same way.
package experiment

import (
	"fmt"
	"sync"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// RunDepth is how many ranked chunks a run keeps per question: the hybrid's
// candidate depth and the depth of the Recall@200 ceiling (spec §9, §10).
const RunDepth = fusion.Depth

// PaperMetrics are the metrics reported for every retriever, in table order.
var PaperMetrics = []string{"recall@5", "mrr@5", "ndcg@5", "success@5"}

// SelectionMetric is the metric whose maximum selects the best hybrid.
const SelectionMetric = "recall@5"

// Setup is one evaluation: a question set with its qrels over a corpus whose
// retrievers Builder makes. Bootstrap intervals use one B × n matrix of
// question indices (n = evaluated questions), drawn once from Seed and reused
// for every metric and method so paired differences share resamples.
type Setup struct {
	Questions []questions.Question
	Qrels     ranking.Qrels
	Builder   *retrieval.Builder
	B         int     // bootstrap resamples; bootstrap.DefaultB when 0
	Seed      uint64  // bootstrap seed; used as given (bootstrap.DefaultSeed is 12,345)
	Level     float64 // interval level; bootstrap.DefaultLevel when 0
	Metrics   []string
	// Progress, when set, is called after each retriever or sweep pairing.
	Progress func(done, total int, what string)

	once    sync.Once
	indices *bootstrap.Indices
}

// NewSetup returns a Setup with the paper's defaults: B = 5,000, seed 12,345,
// 95% intervals and PaperMetrics.
func NewSetup(qs []questions.Question, qrels ranking.Qrels, b *retrieval.Builder) *Setup {
	return &Setup{Questions: qs, Qrels: qrels, Builder: b, B: bootstrap.DefaultB, Seed: bootstrap.DefaultSeed, Level: bootstrap.DefaultLevel, Metrics: PaperMetrics}
}

func (s *Setup) level() float64 {
	if s.Level == 0 {
		return bootstrap.DefaultLevel
	}
	return s.Level
}

func (s *Setup) metricNames() []string {
	if len(s.Metrics) == 0 {
		return PaperMetrics
	}
	return s.Metrics
}

// Indices returns the shared bootstrap matrix for n evaluated questions,
// drawing it on first use. Every evaluation of one Setup has the same n,
// since exclusion depends on the qrels only.
func (s *Setup) Indices(n int) *bootstrap.Indices {
	s.once.Do(func() {
		b := s.B
		if b == 0 {
			b = bootstrap.DefaultB
		}
		s.indices = bootstrap.NewIndices(b, max(n, 1), s.Seed)
	})
	return s.indices
}

// QueryTexts returns the question texts in question order: what retrievers
// are asked, verbatim.
func (s *Setup) QueryTexts() []string {
	texts := make([]string, len(s.Questions))
	for i, q := range s.Questions {
		texts[i] = q.Question
	}
	return texts
}

// Run ranks every question with the named retriever and keeps the top depth
// per question (depth ≤ 0: RunDepth).
func (s *Setup) Run(name string, depth int) (ranking.Run, error) {
	if depth <= 0 {
		depth = RunDepth
	}
	r, err := s.Builder.Build(name)
	if err != nil {
		return nil, err
	}
	lists, err := retrieval.SearchAll(r, s.QueryTexts(), depth)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s.runOf(lists), nil
}

func (s *Setup) runOf(lists [][]ranking.Hit) ranking.Run {
	run := make(ranking.Run, len(lists))
	for i, q := range s.Questions {
		run[q.QID] = lists[i]
	}
	return run
}

// QIDs returns the question IDs in question order (run-file order).
func (s *Setup) QIDs() []string {
	ids := make([]string, len(s.Questions))
	for i, q := range s.Questions {
		ids[i] = q.QID
	}
	return ids
}

// Interval is a point estimate with its bootstrap percentile interval.
type Interval struct {
	Mean, Lo, Hi float64
}

// Evaluation is one retriever's run with its scores.
type Evaluation struct {
	Name   string
	Run    ranking.Run
	Result *metrics.Result
	// CI maps each metric to its interval over all evaluated questions.
	CI map[string]Interval
}

// Score evaluates a run that is already ranked, under name.
func (s *Setup) Score(name string, run ranking.Run) (*Evaluation, error) {
	res, err := metrics.Evaluate(s.Questions, s.Qrels, run, s.metricNames())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ev := &Evaluation{Name: name, Run: run, Result: res, CI: map[string]Interval{}}
	ix := s.Indices(len(res.QIDs))
	for _, m := range res.Metrics {
		if len(res.QIDs) == 0 { // nothing to resample: CheckEvaluable refuses such sets
			ev.CI[m] = Interval{}
			continue
		}
		mean, lo, hi := ix.MeanCI(res.Scores(m), s.level())
		ev.CI[m] = Interval{mean, lo, hi}
	}
	return ev, nil
}

// Evaluate runs the named retriever (top RunDepth) and scores it.
func (s *Setup) Evaluate(name string) (*Evaluation, error) {
	run, err := s.Run(name, RunDepth)
	if err != nil {
		return nil, err
	}
	return s.Score(name, run)
}

// EvaluateAll evaluates each name in order.
func (s *Setup) EvaluateAll(names []string) ([]*Evaluation, error) {
	out := make([]*Evaluation, 0, len(names))
	for i, n := range names {
		ev, err := s.Evaluate(n)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
		if s.Progress != nil {
			s.Progress(i+1, len(names), n)
		}
	}
	return out, nil
}

// Difference is a paired bootstrap difference a − b of one metric.
type Difference struct {
	A, B, Metric string
	Interval
}

// PairedDifference returns mean(x_a − x_b) over the evaluated questions with
// its percentile interval over the shared resamples (spec §10).
func (s *Setup) PairedDifference(a, b *Evaluation, metric string) (Difference, error) {
	xa, xb := a.Result.Scores(metric), b.Result.Scores(metric)
	if xa == nil || xb == nil {
		return Difference{}, fmt.Errorf("paired difference: metric %q not evaluated for both %s and %s", metric, a.Name, b.Name)
	}
	if len(xa) != len(xb) {
		return Difference{}, fmt.Errorf("paired difference: %s and %s were evaluated on different questions", a.Name, b.Name)
	}
	if len(xa) == 0 {
		return Difference{A: a.Name, B: b.Name, Metric: metric}, nil
	}
	d, lo, hi := s.Indices(len(xa)).PairedDiffCI(xa, xb, s.level())
	return Difference{a.Name, b.Name, metric, Interval{d, lo, hi}}, nil
}

// SweepConfig is one linear hybrid configuration of the sweep.
type SweepConfig struct {
	Name    string  // "hybrid:{bm25}+{vector}@{β}"
	Pairing string  // "S-BM25+S-Vec", …
	Beta    float64 // i/20
	Result  *metrics.Result
}

// Sweep holds every configuration in pairing order then β ascending, and the
// index of the selected one.
type Sweep struct {
	Configs  []SweepConfig
	Selected int
	// Components holds each pairing's component runs (top RunDepth), keyed
	// by pairing label, so a configuration's run can be rebuilt by fusing.
	Components map[string][2]ranking.Run
}

// SelectedConfig returns the configuration chosen by the selection rule.
func (w *Sweep) SelectedConfig() SweepConfig { return w.Configs[w.Selected] }

// BestOf returns the first configuration of pairing attaining its maximum of
// metric (the same tie rule as the overall selection).
func (w *Sweep) BestOf(pairing, metric string) (SweepConfig, bool) {
	best, found := SweepConfig{}, false
	for _, c := range w.Configs {
		if c.Pairing != pairing {
			continue
		}
		if !found || c.Result.Mean[metric] > best.Result.Mean[metric] {
			best, found = c, true
		}
	}
	return best, found
}

// Config returns the configuration called name.
func (w *Sweep) Config(name string) (SweepConfig, bool) {
	for _, c := range w.Configs {
		if c.Name == name {
			return c, true
		}
	}
	return SweepConfig{}, false
}

// FusedRun rebuilds the top-RunDepth run of a sweep configuration from the
// stored component runs, without searching again.
func (w *Sweep) FusedRun(c SweepConfig) ranking.Run {
	comp := w.Components[c.Pairing]
	return fuseRuns(fusion.LinearMinMax{Beta: c.Beta}, comp[0], comp[1])
}

func fuseRuns(f fusion.Fuser, sparse, vec ranking.Run) ranking.Run {
	out := make(ranking.Run, len(sparse))
	for qid := range sparse {
		fused := f.Fuse(sparse[qid], vec[qid])
		if len(fused) > RunDepth {
			fused = fused[:RunDepth]
		}
		out[qid] = fused
	}
	return out
}

// Sweep evaluates every pairing at every β of betas (nil: fusion.BetaGrid),
// searching each pairing's two components once and fusing per β, then
// selects the first configuration, in pairing order then β ascending, that
// attains the maximum SelectionMetric (spec §10).
func (s *Setup) Sweep(pairings []retrieval.Pairing, betas []float64) (*Sweep, error) {
	if betas == nil {
		betas = fusion.BetaGrid()
	}
	if len(pairings) == 0 || len(betas) == 0 {
		return nil, fmt.Errorf("sweep: no configurations (%d pairings × %d weights)", len(pairings), len(betas))
	}
	w := &Sweep{Components: map[string][2]ranking.Run{}}
	configs := make([]analysis.Config, 0, len(pairings)*len(betas))
	for i, p := range pairings {
		sparse, err := s.Run(p.BM25.Name(), RunDepth)
		if err != nil {
			return nil, err
		}
		vec, err := s.Run(p.Vector.Name(), RunDepth)
		if err != nil {
			return nil, err
		}
		w.Components[p.Label] = [2]ranking.Run{sparse, vec}
		for _, beta := range betas {
			name := p.Name(beta)
			run := fuseRuns(fusion.LinearMinMax{Beta: beta}, sparse, vec)
			res, err := metrics.Evaluate(s.Questions, s.Qrels, run, s.metricNames())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			w.Configs = append(w.Configs, SweepConfig{Name: name, Pairing: p.Label, Beta: beta, Result: res})
			configs = append(configs, analysis.Config{Name: name, Pairing: p.Label, Beta: beta, Scores: res.Mean})
		}
		if s.Progress != nil {
			s.Progress(i+1, len(pairings), p.Label)
		}
	}
	sel, err := analysis.Select(configs, SelectionMetric)
	if err != nil {
		return nil, err
	}
	for i, c := range w.Configs {
		if c.Name == sel.Name {
			w.Selected = i
			break
		}
	}
	return w, nil
}

// PaperPairings returns the paper's six pairings as a slice, in order.
func PaperPairings() []retrieval.Pairing { return retrieval.PaperPairings[:] }

// PaperSingles are the five single retrievers of the paper's Table 3, in its
// row order.
var PaperSingles = []string{"raw_text_bm25", "summary_bm25", "summary_vector", "embedding_text_vector", "embedding_text_bm25"}
