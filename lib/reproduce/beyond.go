package reproduce

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

// Beyond the paper: three limits that paper §9.1 names and leaves unmeasured,
// measured with the same protocol (top-200 runs, Recall@5, MRR@5 and nDCG@5,
// percentile-bootstrap intervals on the Setup's shared resamples). Their
// tables and figures carry no paper number and are written under these
// slugs.
const (
	TokenizersSlug       = "beyond_tokenizers"
	FusionSlug           = "beyond_fusion"
	HeldOutSlug          = "beyond_heldout_selection"
	AggregateSlug        = "beyond_aggregate"
	TokenizersFigureSlug = "beyond_tokenizers_recall5"
	FusionFigureSlug     = "beyond_fusion_recall5_vs_beta"
)

// HeldOutSplits is the number of random half splits HeldOutTable draws.
const HeldOutSplits = 200

// TokenizerRow is one BM25 retriever under one tokenizer.
type TokenizerRow struct {
	Retriever string // "raw_text_bm25", …
	Tokenizer string // a tokenize.Names entry
	Eval      *experiment.Evaluation
	// Diff is the paired Recall@5 difference from the same retriever under
	// tokenize.Default; nil on the Default row itself.
	Diff *experiment.Difference
}

// TokenizerComparison is BM25 on every representation under every tokenizer.
type TokenizerComparison struct {
	// Rows are representation-major (represent.Names order), then
	// tokenize.Names order (the paper's tokenizer first): 3 × 3 rows.
	Rows []TokenizerRow
	note string
}

// CompareTokenizers evaluates {rep}_bm25 for every representation of
// represent.Names under every tokenizer of tokenize.Names, and the paired
// Recall@5 difference of each from the paper's tokenizer (tokenize.Default)
// on the same representation:
//
//	Δ = mean_q (R@5_tok(q) − R@5_paper(q)), interval over the shared resamples
//
// Every index gets its own retrieval.Builder over the Study's chunks and
// summaries and its own experiment.Setup with the Study's B and seed; the
// bootstrap matrix depends only on B, the seed and the number of evaluated
// questions, so all setups resample the same questions and the differences
// are paired. The Study's own tokenizer reuses the single-retriever runs.
//
// Caveats: BM25's k1 and b are the paper's for every tokenizer, untuned; the
// paper (§5.1, §9.1) suspects its tokenizer disadvantages colloquial
// raw_text, which this tests only on the questions at hand, so the intervals
// are about these questions, not about BM25 in general. Indexing with kagome
// costs far more than the other two (morphological analysis of every chunk
// in three representations).
func (s *Study) CompareTokenizers() (*TokenizerComparison, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	evs := map[string]map[string]*experiment.Evaluation{}
	for _, tok := range tokenize.Names() {
		evs[tok] = map[string]*experiment.Evaluation{}
		for _, rep := range represent.Names {
			name := retrieval.Single{Rep: rep, Method: retrieval.MethodBM25}.Name()
			if ev := findEvaluation(singles, name); tok == s.Opts.Tokenizer && ev != nil {
				evs[tok][rep] = ev
				continue
			}
			ev, err := s.tokenizerSetup(tok).Evaluate(name)
			if err != nil {
				return nil, fmt.Errorf("tokenizer %s: %w", tok, err)
			}
			evs[tok][rep] = ev
			// The index just scored is garbage; collecting it now, rather
			// than when the next index has doubled the heap, bounds the peak
			// RSS at paper scale by one index instead of two.
			runtime.GC()
		}
	}
	c := &TokenizerComparison{note: s.bootstrapNote()}
	for _, rep := range represent.Names {
		base := evs[tokenize.Default][rep]
		for _, tok := range tokenize.Names() {
			row := TokenizerRow{Retriever: base.Name, Tokenizer: tok, Eval: evs[tok][rep]}
			if tok != tokenize.Default {
				d, err := s.Setup.PairedDifference(row.Eval, base, "recall@5")
				if err != nil {
					return nil, err
				}
				row.Diff = &d
			}
			c.Rows = append(c.Rows, row)
		}
	}
	return c, nil
}

// tokenizerSetup returns an evaluation setup like the Study's whose BM25
// retrievers use tokenizer tok. Each call has its own Builder, so an index is
// garbage once its run is scored and at most one extra index is held at a
// time.
func (s *Study) tokenizerSetup(tok string) *experiment.Setup {
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, s.Store, retrieval.Options{Tokenizer: tok, EmbedModel: s.EmbedModel})
	setup := experiment.NewSetup(s.Questions, s.Qrels, b)
	setup.B, setup.Seed, setup.Level, setup.Metrics = s.Setup.B, s.Setup.Seed, s.Setup.Level, s.Setup.Metrics
	return setup
}

func findEvaluation(evs []*experiment.Evaluation, name string) *experiment.Evaluation {
	for _, ev := range evs {
		if ev.Name == name {
			return ev
		}
	}
	return nil
}

func diffCell(d *experiment.Difference) string {
	if d == nil {
		return "–"
	}
	return report.Signed3(d.Mean) + " " + report.CI3(d.Lo, d.Hi)
}

// Table lays the comparison out as TokenizersSlug: one row per retriever and
// tokenizer, with intervals and the paired difference from the paper's
// tokenizer.
func (c *TokenizerComparison) Table() report.Table {
	t := report.Table{Slug: TokenizersSlug, Caption: "BM25 by tokenizer on each representation",
		Columns: append(append([]string{"Retriever", "Tokenizer"}, ciColumns...), "ΔRecall@5 vs "+tokenize.Default+" (95% CI)"),
		Notes: []string{
			tokenize.Default + " is the paper's regular-expression tokenizer (§5.1); kagome keeps content words in base form (IPA dictionary); char-bigram indexes overlapping character 2-grams after NFKC. BM25 k1 = " + strconv.FormatFloat(bm25.K1, 'g', -1, 64) + ", b = " + strconv.FormatFloat(bm25.B, 'g', -1, 64) + " for all three.",
			c.note + " Δ: paired bootstrap difference from the same representation under " + tokenize.Default + ", on the same resamples.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []string{r.Retriever, r.Tokenizer, metricCell(r.Eval, "recall@5"), metricCell(r.Eval, "mrr@5"), metricCell(r.Eval, "ndcg@5"), diffCell(r.Diff)})
	}
	return t
}

// Figure plots Recall@5 with its interval for every row, in row order.
func (c *TokenizerComparison) Figure() (*plot.Plot, error) {
	items := make([]report.LabeledCI, len(c.Rows))
	for i, r := range c.Rows {
		iv := r.Eval.CI["recall@5"]
		items[i] = report.LabeledCI{Label: r.Retriever + " · " + r.Tokenizer, Value: iv.Mean, Lo: iv.Lo, Hi: iv.Hi}
	}
	return report.PointsWithCI("BM25 Recall@5 by representation and tokenizer (95% CI)", "Recall@5", items)
}

// TokenizerTable is CompareTokenizers laid out as a table.
func (s *Study) TokenizerTable() (report.Table, error) {
	c, err := s.CompareTokenizers()
	if err != nil {
		return report.Table{}, err
	}
	return c.Table(), nil
}

// FusionRow is the selected pair fused by one rule.
type FusionRow struct {
	Rule string // what the row fuses, e.g. "reciprocal rank fusion, K = 60"
	Eval *experiment.Evaluation
	// Diff is the paired Recall@5 difference from the linear row; nil on the
	// linear row itself.
	Diff *experiment.Difference
}

// FusionComparison is the selected pairing fused by the paper's linear
// min–max rule and by two alternatives.
type FusionComparison struct {
	Selected experiment.SweepConfig // the configuration the linear sweep selected
	// Rows: linear min–max at the selected β (the paper's), RRF (K = 60),
	// z-score at the selected β, z-score at its own best β.
	Rows []FusionRow
	// Linear and ZScore are Recall@5 (and every other metric) of the pairing
	// at each β of fusion.BetaGrid under the two weighted rules.
	Linear, ZScore []experiment.SweepConfig
}

// CompareFusion fuses the selected configuration's pairing three ways
// (package fusion): the paper's linear min–max hybrid at the selected β;
// reciprocal rank fusion, Σ 1/(60 + rank), which has no weight to tune; and
// the z-score linear hybrid (1 − β)·vec_z + β·bm25_z at every β of the grid,
// reported at the selected β and at its own best β (first maximum of
// Recall@5, analysis.Select). Each run fuses the sweep's stored top-200
// component runs, so nothing is searched again. Differences are paired
// against the linear row.
//
// Caveats: every row is conditional on the pairing the linear sweep chose,
// on the same questions; the linear row is that selection's in-sample
// maximum, which favours it, and the z-score row at its own best β has the
// same in-sample advantage while RRF has none. A z-score chunk missing from
// one list gets that list's mean, not its minimum, so the two weighted rules
// need not peak at the same β.
func (s *Study) CompareFusion() (*FusionComparison, error) {
	sw, err := s.Sweep()
	if err != nil {
		return nil, err
	}
	linear, cfg, err := s.Selected()
	if err != nil {
		return nil, err
	}
	p, err := pairingOf(cfg.Pairing)
	if err != nil {
		return nil, err
	}
	comp := sw.Components[cfg.Pairing]
	fuse := func(spec retrieval.Spec) (*experiment.Evaluation, error) {
		return s.Setup.Score(spec.String(), fuseComponents(spec.Fuser(), comp))
	}
	c := &FusionComparison{Selected: cfg}
	for _, sc := range sw.Configs {
		if sc.Pairing == cfg.Pairing {
			c.Linear = append(c.Linear, sc)
		}
	}
	var zevs []*experiment.Evaluation
	var zcfgs []analysis.Config
	for _, beta := range fusion.BetaGrid() {
		ev, err := fuse(retrieval.Spec{Fusion: retrieval.FusionZScore, BM25: p.BM25, Vector: p.Vector, Beta: beta})
		if err != nil {
			return nil, err
		}
		zevs = append(zevs, ev)
		c.ZScore = append(c.ZScore, experiment.SweepConfig{Name: ev.Name, Pairing: cfg.Pairing, Beta: beta, Result: ev.Result})
		zcfgs = append(zcfgs, analysis.Config{Name: ev.Name, Pairing: cfg.Pairing, Beta: beta, Scores: ev.Result.Mean})
	}
	zBest, err := analysis.Select(zcfgs, experiment.SelectionMetric)
	if err != nil {
		return nil, err
	}
	rrf, err := fuse(retrieval.Spec{Fusion: retrieval.FusionRRF, BM25: p.BM25, Vector: p.Vector})
	if err != nil {
		return nil, err
	}
	zAtSel := findEvaluation(zevs, retrieval.Spec{Fusion: retrieval.FusionZScore, BM25: p.BM25, Vector: p.Vector, Beta: cfg.Beta}.String())
	if zAtSel == nil {
		return nil, fmt.Errorf("fusion comparison: β = %s is not on the grid", fusion.FormatBeta(cfg.Beta))
	}
	c.Rows = []FusionRow{
		{Rule: "linear min–max, selected β (paper)", Eval: linear},
		{Rule: "reciprocal rank fusion, K = 60", Eval: rrf},
		{Rule: "z-score, the selected β", Eval: zAtSel},
		{Rule: "z-score, its own best β", Eval: findEvaluation(zevs, zBest.Name)},
	}
	for i := 1; i < len(c.Rows); i++ {
		d, err := s.Setup.PairedDifference(c.Rows[i].Eval, linear, "recall@5")
		if err != nil {
			return nil, err
		}
		c.Rows[i].Diff = &d
	}
	return c, nil
}

// fuseComponents fuses each question's two component lists and keeps the top
// experiment.RunDepth, as a hybrid retriever's search does.
func fuseComponents(f fusion.Fuser, comp [2]ranking.Run) ranking.Run {
	out := make(ranking.Run, len(comp[0]))
	for qid, sparse := range comp[0] {
		hits := f.Fuse(sparse, comp[1][qid])
		out[qid] = hits[:min(len(hits), experiment.RunDepth)]
	}
	return out
}

// Table lays the comparison out as FusionSlug.
func (c *FusionComparison) Table() report.Table {
	t := report.Table{Slug: FusionSlug, Caption: "Fusion rules on the selected pair (" + c.Selected.Pairing + ")",
		Columns: append(append([]string{"Rule", "Retriever"}, ciColumns...), "ΔRecall@5 vs linear (95% CI)"),
		// Six columns of intervals fit a one-column page only with the metric name short.
		Abbreviations: []report.Abbreviation{{Full: "Recall@", Short: "R@"}},
		Notes: []string{
			"Every rule fuses the same top-200 component runs. RRF: Σ 1/(60 + rank). z-score: (1 − β)·vec_z + β·bm25_z, a chunk missing from a list counts as that list's mean.",
			"The pairing and the linear β were selected on these questions, and the z-score row at its own best β likewise; RRF has no weight. Δ: paired bootstrap difference from the linear row.",
		}}
	for _, r := range c.Rows {
		t.Rows = append(t.Rows, []string{r.Rule, r.Eval.Name, metricCell(r.Eval, "recall@5"), metricCell(r.Eval, "mrr@5"), metricCell(r.Eval, "ndcg@5"), diffCell(r.Diff)})
	}
	return t
}

// Figure plots Recall@5 against β for the linear and the z-score rule,
// marking the selected configuration.
func (c *FusionComparison) Figure() (*plot.Plot, error) {
	series := func(label string, cfgs []experiment.SweepConfig) report.Series {
		ser := report.Series{Label: label}
		for _, sc := range cfgs {
			ser.X = append(ser.X, sc.Beta)
			ser.Y = append(ser.Y, sc.Result.Mean["recall@5"])
		}
		return ser
	}
	hl := &report.Point{X: c.Selected.Beta, Y: c.Selected.Result.Mean["recall@5"], Label: "selected (linear)"}
	return report.BetaCurves("Recall@5 vs β on "+c.Selected.Pairing+": linear min–max vs z-score", "Recall@5",
		[]report.Series{series("linear min–max (paper)", c.Linear), series("z-score", c.ZScore)}, hl)
}

// FusionTable is CompareFusion laid out as a table.
func (s *Study) FusionTable() (report.Table, error) {
	c, err := s.CompareFusion()
	if err != nil {
		return report.Table{}, err
	}
	return c.Table(), nil
}

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
	// Macro Recall@5 of Hybrid on Select (in-sample) and on Evaluate
	// (held out), and of Single on Evaluate.
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
	Seed      uint64
	Questions int                    // evaluated questions n
	Full      experiment.SweepConfig // selected on all n questions (in-sample)
	Splits    []HeldOutSplit
}

// HeldOutSelection measures the selection optimism of paper §8.1 and §9.1
// (pairing and β chosen and reported on the same questions). It shuffles the
// n evaluated questions splits times with one generator,
// rand.New(rand.NewPCG(seed, seed)), split r being its r-th Perm(n): the
// first ⌊n/2⌋ positions form the selection half, the rest the held-out half.
// On the selection half it applies the paper's rule (analysis.Select: first
// configuration in pairing then β order attaining the maximum Recall@5) to
// the 126 sweep configurations, and the same rule to the five single
// retrievers; both are then scored on the held-out half. Scores are the
// per-question Recall@5 vectors the sweep and the single runs already hold,
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
func (s *Study) HeldOutSelection(splits int, seed uint64) (*HeldOut, error) {
	if splits < 1 {
		return nil, fmt.Errorf("held-out selection: %d splits, want at least 1", splits)
	}
	sw, err := s.Sweep()
	if err != nil {
		return nil, err
	}
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
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
	h := &HeldOut{Seed: seed, Questions: n, Full: full}
	rng := rand.New(rand.NewPCG(seed, seed))
	for range splits {
		perm := rng.Perm(n)
		sel, out := slices.Sorted(slices.Values(perm[:n/2])), slices.Sorted(slices.Values(perm[n/2:]))
		hybrid, err := selectOn(sweepCandidates(sw), sel)
		if err != nil {
			return nil, err
		}
		single, err := selectOn(singleCandidates(singles), sel)
		if err != nil {
			return nil, err
		}
		h.Splits = append(h.Splits, HeldOutSplit{
			Select: sel, Evaluate: out,
			Hybrid: hybrid.Name, Pairing: hybrid.Pairing, Single: single.Name,
			InSample: meanOver(hybrid.recall, sel), HeldOut: meanOver(hybrid.recall, out), SingleHeldOut: meanOver(single.recall, out),
		})
	}
	return h, nil
}

// candidate is a configuration or retriever with its per-question Recall@5.
type candidate struct {
	Name, Pairing string
	Beta          float64
	recall        []float64
}

func sweepCandidates(sw *experiment.Sweep) []candidate {
	cs := make([]candidate, len(sw.Configs))
	for i, c := range sw.Configs {
		cs[i] = candidate{c.Name, c.Pairing, c.Beta, c.Result.Scores(experiment.SelectionMetric)}
	}
	return cs
}

func singleCandidates(evs []*experiment.Evaluation) []candidate {
	cs := make([]candidate, len(evs))
	for i, ev := range evs {
		cs[i] = candidate{Name: ev.Name, recall: ev.Result.Scores(experiment.SelectionMetric)}
	}
	return cs
}

// selectOn applies analysis.Select to the candidates' mean Recall@5 over the
// question positions idx.
func selectOn(cs []candidate, idx []int) (candidate, error) {
	configs := make([]analysis.Config, len(cs))
	for i, c := range cs {
		configs[i] = analysis.Config{Name: c.Name, Pairing: c.Pairing, Beta: c.Beta,
			Scores: map[string]float64{experiment.SelectionMetric: meanOver(c.recall, idx)}}
	}
	best, err := analysis.Select(configs, experiment.SelectionMetric)
	if err != nil {
		return candidate{}, err
	}
	for _, c := range cs {
		if c.Name == best.Name {
			return c, nil
		}
	}
	return candidate{}, fmt.Errorf("held-out selection: no candidate %s", best.Name)
}

// meanOver is metrics.Mean of x at the positions idx.
func meanOver(x []float64, idx []int) float64 {
	sub := make([]float64, len(idx))
	for i, j := range idx {
		sub[i] = x[j]
	}
	return metrics.Mean(sub)
}

// spread returns the mean of x and its 2.5th and 97.5th percentiles
// (bootstrap.Quantile7).
func spread(x []float64) (mean, lo, hi float64) {
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	return metrics.Mean(x), bootstrap.Quantile7(sorted, 0.025), bootstrap.Quantile7(sorted, 0.975)
}

// Table summarises the splits as HeldOutSlug: mean and 2.5th–97.5th
// percentile over splits of the in-sample and held-out Recall@5 of the
// selected hybrid, the optimism, the held-out gain over the selected single
// retriever, and how often the gain is positive and the full-data pairing
// and configuration are chosen again.
func (h *HeldOut) Table() report.Table {
	k := len(h.Splits)
	var in, out, opt, single, gain []float64
	positive, samePairing, sameConfig := 0, 0, 0
	for _, sp := range h.Splits {
		in, out, opt = append(in, sp.InSample), append(out, sp.HeldOut), append(opt, sp.Optimism())
		single, gain = append(single, sp.SingleHeldOut), append(gain, sp.Gain())
		if sp.Gain() > 0 {
			positive++
		}
		if sp.Pairing == h.Full.Pairing {
			samePairing++
		}
		if sp.Hybrid == h.Full.Name {
			sameConfig++
		}
	}
	row := func(label string, x []float64, signed bool) []string {
		m, lo, hi := spread(x)
		f := report.F3
		if signed {
			f = report.Signed3
		}
		return []string{label, f(m), report.CI3(lo, hi)}
	}
	count := func(label string, c int) []string {
		return []string{label, fmt.Sprintf("%d of %d", c, k), "–"}
	}
	half := strconv.Itoa(h.Questions / 2)
	return report.Table{Slug: HeldOutSlug, Caption: fmt.Sprintf("Selection on one half of the questions, evaluation on the other (%d random splits)", k),
		Columns: []string{"Quantity", "Mean over splits", "2.5th–97.5th percentile"},
		Align:   []report.Alignment{report.AlignLeft, report.AlignRight, report.AlignRight},
		Rows: [][]string{
			row("Recall@5 of the selected hybrid, selection half", in, false),
			row("Recall@5 of the selected hybrid, held-out half", out, false),
			row("Optimism (selection − held-out)", opt, true),
			row("Recall@5 of the selected single retriever, held-out half", single, false),
			row("Held-out gain of the hybrid over the single retriever", gain, true),
			count("Splits with a positive held-out gain", positive),
			count("Splits selecting the full-data pairing ("+h.Full.Pairing+")", samePairing),
			count("Splits selecting the full-data configuration", sameConfig),
		},
		Notes: []string{
			fmt.Sprintf("Each split shuffles the %d evaluated questions (math/rand/v2 PCG, seed %d) and selects on %s of them with the paper's rule over the 126 hybrid configurations, and over the five single retrievers, then scores both on the other %d.",
				h.Questions, h.Seed, half, h.Questions-h.Questions/2),
			fmt.Sprintf("Selected on all %d questions: %s, Recall@5 %s (in-sample). Percentiles describe variation over overlapping splits, not a confidence interval; selection on a half is noisier than on all questions.",
				h.Questions, h.Full.Name, report.F3(h.Full.Result.Mean["recall@5"])),
		}}
}

// HeldOutTable is HeldOutSelection with HeldOutSplits splits seeded by the
// Study's bootstrap seed, laid out as a table.
func (s *Study) HeldOutTable() (report.Table, error) {
	h, err := s.HeldOutSelection(HeldOutSplits, s.Opts.Seed)
	if err != nil {
		return report.Table{}, err
	}
	return h.Table(), nil
}
