// Package experiment runs the evaluation protocol over one corpus: every
// retriever's top-Protocol.RunDepth run for every question, metrics per question and
// macro, percentile-bootstrap intervals from one shared index matrix, and the
// weight sweep of a fusion rule over pairings with the spec §10 selection
// rule. Protocol holds every choice that decides a number; PaperProtocol is
// the paper's (6 pairings × 21 β of the linear hybrid, B = 5,000, …).
//
// It glues lib/retrieval (rankings), lib/fusion (one fuse-and-cut routine),
// lib/metrics (scores), lib/bootstrap (intervals) and lib/analysis (the
// selection rule) together, so the CLI, `reproduce` and the notebooks all
// evaluate the same way. It imports those, lib/questions, lib/ranking, the
// packages that hold the paper's defaults (lib/represent, lib/tokenize) and
// lib/internal/parallel.
package experiment

import (
	"fmt"
	"sync"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/internal/parallel"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// Setup is one evaluation: a question set with its qrels over a corpus whose
// retrievers Builder makes, under Protocol. Bootstrap intervals use one
// Protocol.B × n matrix of question indices (n = evaluated questions), drawn
// once from Protocol.Seed and reused for every metric and method so paired
// differences share resamples. Set Protocol before the first evaluation.
type Setup struct {
	Questions []questions.Question
	Qrels     ranking.Qrels
	Builder   *retrieval.Builder
	Protocol  Protocol
	// Progress, when set, is called after each retriever or sweep pairing.
	Progress func(done, total int, what string)

	once    sync.Once
	indices *bootstrap.Indices

	mu   sync.Mutex
	runs map[runKey]*sharedRun // single retrievers' runs, shared by every evaluation
}

// runKey names one single retriever's run: the builder it came from, its
// name and its depth.
type runKey struct {
	builder *retrieval.Builder
	name    string
	depth   int
}

// sharedRun is a run computed once and read by every evaluation that needs
// it.
type sharedRun struct {
	once  sync.Once
	lists [][]ranking.Hit
	err   error
}

// NewSetup returns a Setup under PaperProtocol.
func NewSetup(qs []questions.Question, qrels ranking.Qrels, b *retrieval.Builder) *Setup {
	return &Setup{Questions: qs, Qrels: qrels, Builder: b, Protocol: PaperProtocol()}
}

// Indices returns the shared bootstrap matrix for n evaluated questions,
// drawing it on first use. Every evaluation of one Setup has the same n,
// since exclusion depends on the qrels only. Protocol.B must be ≥ 1.
func (s *Setup) Indices(n int) *bootstrap.Indices {
	s.once.Do(func() {
		s.indices = bootstrap.NewIndices(s.Protocol.B, max(n, 1), s.Protocol.Seed)
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
// per question (depth ≤ 0: Protocol.RunDepth).
func (s *Setup) Run(name string, depth int) (ranking.Run, error) {
	spec, err := retrieval.ParseName(name)
	if err != nil {
		return nil, err
	}
	return s.RunSpec(spec, depth)
}

// RunSpec is Run for a parsed retriever name.
//
// The ranked lists of single retrievers (BM25 and vector) are searched once
// per Setup, name and depth, and shared: a hybrid reads its components' top
// fusion.Depth from the same lists as the single retrievers and the sweep,
// then fuses them with fusion.FuseTop exactly as retrieval.Hybrid's search
// does, so every ranking is the one a fresh search returns. The hits of a
// returned run may be shared with other runs of the Setup: callers must not
// modify them.
func (s *Setup) RunSpec(spec retrieval.Spec, depth int) (ranking.Run, error) {
	if depth <= 0 {
		depth = s.Protocol.RunDepth
	}
	r, err := s.Builder.BuildSpec(spec)
	if err != nil {
		return nil, err
	}
	var lists [][]ranking.Hit
	fused, isFused := r.(retrieval.Fused)
	switch {
	case spec.Prefix() && spec.Fusion == "":
		lists, err = s.singleLists(r, depth)
	case isFused:
		var sparse, vec [][]ranking.Hit
		if sparse, vec, err = s.hybridComponents(fused); err == nil {
			_, _, fuser := fused.Components()
			lists = make([][]ranking.Hit, len(sparse))
			for i := range sparse {
				lists[i] = fusion.FuseTop(fuser, sparse[i], vec[i], depth)
			}
		}
	default:
		lists, err = retrieval.SearchAll(r, s.QueryTexts(), depth)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	return s.runOf(lists), nil
}

// prepare builds the indexes and matrices of specs at once
// (retrieval.Builder.Prepare) before they are run one by one. Its error is
// left to the run that needs the failed component, so that a failure is
// reported for the same retriever, with the same words, as without it.
func (s *Setup) prepare(specs []retrieval.Spec) {
	_ = s.Builder.Prepare(specs...)
}

// singleLists returns the ranked lists of a single retriever (top depth, in
// question order), searching them on first use.
func (s *Setup) singleLists(r retrieval.Retriever, depth int) ([][]ranking.Hit, error) {
	key := runKey{s.Builder, r.Name(), depth}
	s.mu.Lock()
	if s.runs == nil {
		s.runs = map[runKey]*sharedRun{}
	}
	sr, ok := s.runs[key]
	if !ok {
		sr = &sharedRun{}
		s.runs[key] = sr
	}
	s.mu.Unlock()
	sr.once.Do(func() { sr.lists, sr.err = retrieval.SearchAll(r, s.QueryTexts(), depth) })
	return sr.lists, sr.err
}

// ComponentDepth is how deep each component list of a hybrid is, in a run
// and in the sweep: fusion.Depth, the top retrieval.Hybrid's ComponentRuns
// fuses.
const ComponentDepth = fusion.Depth

// hybridComponents returns a hybrid's component lists, each top
// ComponentDepth as retrieval.Hybrid's ComponentRuns returns them.
func (s *Setup) hybridComponents(h retrieval.Fused) (sparse, vec [][]ranking.Hit, err error) {
	sr, dr, _ := h.Components()
	if sparse, err = s.singleLists(sr, ComponentDepth); err != nil {
		return nil, nil, err
	}
	if vec, err = s.singleLists(dr, ComponentDepth); err != nil {
		return nil, nil, err
	}
	return sparse, vec, nil
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
	if s.Protocol.B < 1 {
		return nil, fmt.Errorf("%s: protocol has B = %d bootstrap resamples, want at least 1", name, s.Protocol.B)
	}
	res, err := metrics.Evaluate(s.Questions, s.Qrels, run, s.Protocol.Metrics)
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
		mean, lo, hi := ix.MeanCI(res.Scores(m), s.Protocol.Level)
		ev.CI[m] = Interval{mean, lo, hi}
	}
	return ev, nil
}

// Evaluate runs the named retriever (top Protocol.RunDepth) and scores it.
func (s *Setup) Evaluate(name string) (*Evaluation, error) {
	run, err := s.Run(name, 0)
	if err != nil {
		return nil, err
	}
	return s.Score(name, run)
}

// EvaluateSpecs evaluates each parsed retriever name in order.
func (s *Setup) EvaluateSpecs(specs []retrieval.Spec) ([]*Evaluation, error) {
	s.prepare(specs)
	out := make([]*Evaluation, 0, len(specs))
	for i, spec := range specs {
		run, err := s.RunSpec(spec, 0)
		if err != nil {
			return nil, err
		}
		ev, err := s.Score(spec.String(), run)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
		if s.Progress != nil {
			s.Progress(i+1, len(specs), ev.Name)
		}
	}
	return out, nil
}

// EvaluateAll parses the names, then evaluates them in order
// (EvaluateSpecs).
func (s *Setup) EvaluateAll(names []string) ([]*Evaluation, error) {
	specs, err := retrieval.ParseNames(names)
	if err != nil {
		return nil, err
	}
	return s.EvaluateSpecs(specs)
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
	d, lo, hi := s.Indices(len(xa)).PairedDiffCI(xa, xb, s.Protocol.Level)
	return Difference{a.Name, b.Name, metric, Interval{d, lo, hi}}, nil
}

// Config is one fused configuration of a sweep: a pairing fused by one rule
// at one weight, with its scores. It is the one shape of a configuration:
// the sweep, the selection rule, the fusion comparison and held-out
// selection all use it.
type Config struct {
	Name    string         // Spec.String(), e.g. "hybrid:summary_bm25+summary_vector@0.45"
	Pairing string         // the pairing's label, e.g. "S-BM25+S-Vec"
	Beta    float64        // Spec.Beta, the BM25 weight (0 for RRF)
	Spec    retrieval.Spec // the fused retriever
	Result  *metrics.Result
}

// Sweep holds every configuration in pairing order then β ascending, and the
// index of the one selected by the first maximum of the protocol's
// selection metric.
type Sweep struct {
	Configs  []Config
	Selected int
	// Components holds each pairing's component runs (BM25, vector; top
	// fusion.Depth), keyed by pairing label, so a configuration's run, or
	// another fusion rule's, is rebuilt by fusing without searching again.
	Components map[string][2]ranking.Run

	depth int // the protocol's run depth, where fused runs are cut
}

// SelectedConfig returns the configuration chosen by the selection rule.
func (w *Sweep) SelectedConfig() Config { return w.Configs[w.Selected] }

// BestOf returns the first configuration of pairing attaining its maximum of
// metric (the same tie rule as the overall selection).
func (w *Sweep) BestOf(pairing, metric string) (Config, bool) {
	best, found := Config{}, false
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
func (w *Sweep) Config(name string) (Config, bool) {
	for _, c := range w.Configs {
		if c.Name == name {
			return c, true
		}
	}
	return Config{}, false
}

// FusedRun rebuilds the run of a configuration (top run depth) from the
// stored component runs, without searching again. c may be any fused spec
// over one of the swept pairings, not only a swept configuration.
func (w *Sweep) FusedRun(c Config) ranking.Run {
	comp := w.Components[c.Pairing]
	return fusion.FuseRuns(c.Spec.Fuser(), comp[0], comp[1], w.depth)
}

// Sweep is the paper's sweep: SweepFusion with the linear min–max hybrid
// (retrieval.FusionLinear) over pairings and betas (nil: Protocol's).
func (s *Setup) Sweep(pairings []retrieval.Pairing, betas []float64) (*Sweep, error) {
	return s.SweepFusion(retrieval.FusionLinear, pairings, betas)
}

// SweepFusion evaluates the fusion rule kind (retrieval.FusionLinear,
// FusionZScore or FusionRRF) for every pairing at every β of betas, in
// pairing order then β ascending (pairings and betas nil: the Protocol's;
// RRF has no weight, so it gives one configuration per pairing). Each
// pairing's two components are searched once (retrieval.Hybrid's
// ComponentRuns) and fused per β by fusion.FuseTopEach, the routine a hybrid
// retriever's search uses (fusion.FuseTop) sharing each question's union
// and normalisation between the weights. A configuration is scored on its
// fused top min(Protocol.RunDepth, K), K the largest cutoff of
// Protocol.Metrics, which is all that any metric reads of the full run
// (Sweep.FusedRun rebuilds that run). Questions are fused, and
// configurations scored, on all cores. The selected configuration is the
// first attaining the maximum Protocol.SelectionMetric (spec §10,
// analysis.FirstMax).
func (s *Setup) SweepFusion(kind string, pairings []retrieval.Pairing, betas []float64) (*Sweep, error) {
	if pairings == nil {
		pairings = s.Protocol.Pairings
	}
	if betas == nil {
		betas = s.Protocol.Betas
	}
	if kind == retrieval.FusionRRF {
		betas = []float64{0}
	}
	if len(pairings) == 0 || len(betas) == 0 {
		return nil, fmt.Errorf("sweep: no configurations (%d pairings × %d weights)", len(pairings), len(betas))
	}
	cut, err := s.metricDepth()
	if err != nil {
		return nil, err
	}
	if cut <= 0 || cut > s.Protocol.RunDepth {
		cut = s.Protocol.RunDepth
	}
	specs := make([]retrieval.Spec, len(pairings))
	for i, p := range pairings {
		specs[i] = p.Spec(0)
	}
	s.prepare(specs)
	w := &Sweep{Components: map[string][2]ranking.Run{}, depth: s.Protocol.RunDepth}
	scores := make([]float64, 0, len(pairings)*len(betas))
	for i, p := range pairings {
		sparse, vec, err := s.componentRuns(p)
		if err != nil {
			return nil, err
		}
		w.Components[p.Label] = [2]ranking.Run{sparse, vec}
		configs := make([]Config, len(betas))
		fusers := make([]fusion.Fuser, len(betas))
		for j, beta := range betas {
			spec := p.Spec(beta)
			spec.Fusion = kind
			configs[j] = Config{Name: spec.String(), Pairing: p.Label, Beta: beta, Spec: spec}
			if fusers[j] = spec.Fuser(); fusers[j] == nil {
				return nil, fmt.Errorf("sweep: unknown fusion %q", kind)
			}
		}
		qids := make([]string, 0, len(sparse))
		for qid := range sparse {
			qids = append(qids, qid)
		}
		fused := make([][][]ranking.Hit, len(qids)) // by question, then configuration
		parallel.For(len(qids), func(k int) {
			fused[k] = fusion.FuseTopEach(fusers, sparse[qids[k]], vec[qids[k]], cut)
		})
		errs := make([]error, len(configs))
		parallel.For(len(configs), func(j int) {
			run := make(ranking.Run, len(qids))
			for k, qid := range qids {
				run[qid] = fused[k][j]
			}
			configs[j].Result, errs[j] = metrics.Evaluate(s.Questions, s.Qrels, run, s.Protocol.Metrics)
		})
		for j, c := range configs {
			if errs[j] != nil {
				return nil, fmt.Errorf("%s: %w", c.Name, errs[j])
			}
			w.Configs = append(w.Configs, c)
			scores = append(scores, c.Result.Mean[s.Protocol.SelectionMetric])
		}
		if s.Progress != nil {
			s.Progress(i+1, len(pairings), p.Label)
		}
	}
	sel, err := analysis.FirstMax(scores)
	if err != nil {
		return nil, err
	}
	w.Selected = sel
	return w, nil
}

// metricDepth is the deepest rank any of the protocol's metrics reads: each
// metric cuts a ranked list at its k (lib/metrics), so a configuration scored
// on its top metricDepth scores as on its full run.
func (s *Setup) metricDepth() (int, error) {
	depth := 0
	for _, name := range s.Protocol.Metrics {
		m, err := metrics.Parse(name)
		if err != nil {
			return 0, err
		}
		depth = max(depth, m.K)
	}
	return depth, nil
}

// componentRuns returns a pairing's BM25 and vector runs for every
// question, top fusion.Depth each: what every fusion of the pairing reads.
// They come from the Setup's shared single-retriever lists, so a
// representation's vectors are searched once however many pairings, sweeps
// and evaluations use them.
func (s *Setup) componentRuns(p retrieval.Pairing) (sparse, vec ranking.Run, err error) {
	r, err := s.Builder.BuildSpec(p.Spec(0))
	if err != nil {
		return nil, nil, err
	}
	ls, lv, err := s.hybridComponents(r.(retrieval.Fused))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p.Label, err)
	}
	return s.runOf(ls), s.runOf(lv), nil
}
