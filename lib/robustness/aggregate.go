package robustness

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
)

// Names of the rows that are not a single retriever.
const (
	SelectedHybrid = "selected hybrid"
	HybridGain     = "selected hybrid − best single"
)

// Distribution describes one quantity over the seeds (see the package doc
// for the formulas).
type Distribution struct {
	Values                   []float64 // per seed, ascending seed order
	Mean, Min, Max, P10, P90 float64
	// SeedCI is the seed-level bootstrap interval of Mean.
	SeedCI experiment.Interval
	// QuestionCI averages each seed's question-level interval bound by
	// bound; its Mean is Mean.
	QuestionCI experiment.Interval
}

// Row is the distribution of one metric of one retriever (a single
// retriever's name, SelectedHybrid or HybridGain).
type Row struct {
	Retriever, Metric string
	Distribution
}

// Count is how many seeds chose one option: a pairing, a configuration
// (Pairing and Beta) or a best single retriever (Label).
type Count struct {
	Label   string
	Pairing string
	Beta    float64
	Seeds   int
}

// PairOrder counts, per metric, the seeds on which Upper scores above Lower,
// Lower preceding Upper in the paper's Table 3 (whose values rise down the
// table), and the seeds on which they tie.
type PairOrder struct {
	Lower, Upper string
	Above, Ties  map[string]int
}

// Claim is a statement about the results that the paper makes (Paper says
// what it reports) and that can be checked on each seed.
type Claim struct {
	Statement string
	Paper     string
	Holds     func(SeedResult) bool `json:"-"`
}

// ClaimResult is a claim with the number of seeds on which it holds.
type ClaimResult struct {
	Claim
	Seeds int
}

// Summary aggregates the per-seed results.
type Summary struct {
	Seeds         []uint64
	B             int
	BootstrapSeed uint64
	Level         float64
	Metrics       []string     // the protocol's metrics that every seed evaluated, in its order
	Results       []SeedResult // ascending by seed
	// Rows: each single retriever (Table 3 order), then SelectedHybrid, then
	// HybridGain; metrics in Metrics order within each.
	Rows        []Row
	Pairings    []Count // every paper pairing, in its order
	Configs     []Count // configurations selected at least once: most seeds first, then pairing order, then β
	BestSingles []Count // every single retriever, Table 3 order
	// HybridWins counts, by metric, the seeds whose selected hybrid scores
	// above the best single retriever; HybridWinsCI those whose paired
	// interval lies above 0.
	HybridWins, HybridWinsCI map[string]int
	Orders                   []PairOrder
	// FullOrder counts, by metric, the seeds on which the metric rises
	// strictly over the protocol's single retrievers in their order (Table
	// 3's under the paper's protocol).
	FullOrder map[string]int
	Claims    []ClaimResult

	protocol experiment.Protocol // what Aggregate ran under
}

// Row returns the row of retriever and metric.
func (s *Summary) Row(retriever, metric string) (Row, bool) {
	for _, r := range s.Rows {
		if r.Retriever == retriever && r.Metric == metric {
			return r, true
		}
	}
	return Row{}, false
}

// Aggregate summarises results (in any order) under p: a seed-level
// bootstrap of p.B resamples drawn from p.Seed with p.Level intervals, of
// p.Metrics (those every seed evaluated) for p.Singles (in order, which
// every result must hold), the selected hybrid and the gain; selections are
// counted over p.Pairings, pairwise orders over p.Singles.
func Aggregate(results []SeedResult, p experiment.Protocol) (*Summary, error) {
	if len(results) == 0 {
		return nil, errors.New("robustness: no seed results to aggregate")
	}
	if err := experiment.CheckBootstrap(p.B); err != nil {
		return nil, fmt.Errorf("robustness: %w", err)
	}
	results = slices.Clone(results)
	slices.SortFunc(results, func(x, y SeedResult) int { return cmp.Compare(x.Seed, y.Seed) })
	s := &Summary{B: p.B, BootstrapSeed: p.Seed, Level: p.Level, Results: results, protocol: p,
		HybridWins: map[string]int{}, HybridWinsCI: map[string]int{}, FullOrder: map[string]int{}}
	for i, r := range results {
		if i > 0 && r.Seed == results[i-1].Seed {
			return nil, fmt.Errorf("robustness: seed %d has two results", r.Seed)
		}
		if err := checkResult(r, p.Singles); err != nil {
			return nil, err
		}
		s.Seeds = append(s.Seeds, r.Seed)
	}
	for _, m := range p.Metrics {
		if everySeedHas(results, m) {
			s.Metrics = append(s.Metrics, m)
		}
	}
	ix := bootstrap.NewIndices(p.B, len(results), p.Seed)
	for _, name := range p.Singles {
		s.addRows(ix, name, func(r SeedResult) map[string]experiment.Interval { e, _ := r.Single(name); return e.Metrics })
	}
	s.addRows(ix, SelectedHybrid, func(r SeedResult) map[string]experiment.Interval { return r.Selected.Metrics })
	s.addRows(ix, HybridGain, func(r SeedResult) map[string]experiment.Interval { return r.Gain })
	s.countSelections()
	s.countOrders()
	for _, r := range results {
		for _, m := range s.Metrics {
			if g := r.Gain[m]; g.Mean > 0 {
				s.HybridWins[m]++
				if g.Lo > 0 {
					s.HybridWinsCI[m]++
				}
			}
		}
	}
	for _, c := range Claims {
		n := 0
		for _, r := range results {
			if c.Holds(r) {
				n++
			}
		}
		s.Claims = append(s.Claims, ClaimResult{c, n})
	}
	return s, nil
}

// checkResult reports a result that lacks one of the single retrievers
// singles.
func checkResult(r SeedResult, singles []string) error {
	for _, name := range singles {
		if _, ok := r.Single(name); !ok {
			return fmt.Errorf("robustness: seed %d has no result for %s", r.Seed, name)
		}
	}
	return nil
}

func everySeedHas(results []SeedResult, metric string) bool {
	for _, r := range results {
		for _, e := range append(slices.Clone(r.Singles), r.Selected.Estimate) {
			if _, ok := e.Metrics[metric]; !ok {
				return false
			}
		}
		if _, ok := r.Gain[metric]; !ok {
			return false
		}
	}
	return true
}

func (s *Summary) addRows(ix *bootstrap.Indices, name string, of func(SeedResult) map[string]experiment.Interval) {
	for _, m := range s.Metrics {
		d := Distribution{Values: make([]float64, len(s.Results))}
		los, his := make([]float64, len(s.Results)), make([]float64, len(s.Results))
		for i, r := range s.Results {
			ci := of(r)[m]
			d.Values[i], los[i], his[i] = ci.Mean, ci.Lo, ci.Hi
		}
		sorted := slices.Clone(d.Values)
		slices.Sort(sorted)
		d.Min, d.Max = sorted[0], sorted[len(sorted)-1]
		d.P10, d.P90 = bootstrap.Quantile7(sorted, 0.10), bootstrap.Quantile7(sorted, 0.90)
		mean, lo, hi := ix.MeanCI(d.Values, s.Level)
		d.Mean, d.SeedCI = mean, experiment.Interval{Mean: mean, Lo: lo, Hi: hi}
		d.QuestionCI = experiment.Interval{Mean: mean, Lo: metrics.Mean(los), Hi: metrics.Mean(his)}
		s.Rows = append(s.Rows, Row{Retriever: name, Metric: m, Distribution: d})
	}
}

func (s *Summary) countSelections() {
	pairings := map[string]int{}
	configs := map[string]*Count{}
	best := map[string]int{}
	for _, r := range s.Results {
		pairings[r.Selected.Pairing]++
		best[r.BestSingle]++
		key := fmt.Sprintf("%s@%.2f", r.Selected.Pairing, r.Selected.Beta)
		if c, ok := configs[key]; ok {
			c.Seeds++
		} else {
			configs[key] = &Count{Label: key, Pairing: r.Selected.Pairing, Beta: r.Selected.Beta, Seeds: 1}
		}
	}
	order := map[string]int{}
	for i, p := range s.protocol.Pairings {
		order[p.Label] = i
		s.Pairings = append(s.Pairings, Count{Label: p.Label, Pairing: p.Label, Seeds: pairings[p.Label]})
	}
	for _, c := range configs {
		s.Configs = append(s.Configs, *c)
	}
	slices.SortFunc(s.Configs, func(a, b Count) int {
		return cmp.Or(cmp.Compare(b.Seeds, a.Seeds), cmp.Compare(order[a.Pairing], order[b.Pairing]), cmp.Compare(a.Beta, b.Beta))
	})
	for _, name := range s.protocol.Singles {
		s.BestSingles = append(s.BestSingles, Count{Label: name, Seeds: best[name]})
	}
}

func (s *Summary) countOrders() {
	names := s.protocol.Singles
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			po := PairOrder{Lower: names[i], Upper: names[j], Above: map[string]int{}, Ties: map[string]int{}}
			for _, r := range s.Results {
				lo, _ := r.Single(names[i])
				up, _ := r.Single(names[j])
				for _, m := range s.Metrics {
					switch a, b := up.Metrics[m].Mean, lo.Metrics[m].Mean; {
					case a > b:
						po.Above[m]++
					case a == b:
						po.Ties[m]++
					}
				}
			}
			s.Orders = append(s.Orders, po)
		}
	}
	for _, r := range s.Results {
		for _, m := range s.Metrics {
			if rises(r, names, m) {
				s.FullOrder[m]++
			}
		}
	}
}

// rises reports whether metric rises strictly over the single retrievers
// names, in that order, on r.
func rises(r SeedResult, names []string, metric string) bool {
	prev := -1.0
	for _, name := range names {
		e, _ := r.Single(name)
		v := e.Metrics[metric].Mean
		if v <= prev {
			return false
		}
		prev = v
	}
	return true
}

// paper is the protocol the paper's claims speak of: its Table 3 order and
// its selection metric, Recall@5.
var paper = experiment.PaperProtocol()

// Claims are the paper's statements about its results that are checked on
// every seed, in the order of its §6–§7.
var Claims = []Claim{
	{
		Statement: "embedding_text_bm25 has the highest Recall@5 of the five single retrievers",
		Paper:     "yes (0.584)",
		Holds:     func(r SeedResult) bool { return r.BestSingle == "embedding_text_bm25" },
	},
	{
		Statement: "raw_text_bm25 has the lowest Recall@5 of the five single retrievers",
		Paper:     "yes (0.427)",
		Holds:     func(r SeedResult) bool { return lowestSingle(r) == "raw_text_bm25" },
	},
	{
		Statement: "the five single retrievers' Recall@5 rises in Table 3's order (raw_text_bm25 < summary_bm25 < summary_vector < embedding_text_vector < embedding_text_bm25)",
		Paper:     "yes",
		Holds:     func(r SeedResult) bool { return rises(r, paper.Singles, paper.SelectionMetric) },
	},
	{
		Statement: "the sweep selects E-BM25+E-Vec",
		Paper:     "yes (β = 0.45)",
		Holds:     func(r SeedResult) bool { return r.Selected.Pairing == PaperPairing },
	},
	{
		Statement: "the selected hybrid's Recall@5 is above the best single retriever's",
		Paper:     "yes (+0.113)",
		Holds:     func(r SeedResult) bool { return r.Gain[paper.SelectionMetric].Mean > 0 },
	},
	{
		Statement: "… and the paired 95% CI of that difference lies above 0",
		Paper:     "yes ([0.048, 0.184])",
		Holds:     func(r SeedResult) bool { return r.Gain[paper.SelectionMetric].Lo > 0 },
	},
	{
		Statement: "aggregate questions have the selected hybrid's lowest Recall@5 of the three question types",
		Paper:     "yes (0.345 vs 0.789 and 0.755)",
		Holds:     func(r SeedResult) bool { return lowestType(r) == questions.Aggregate },
	},
}

// lowestSingle returns the single retriever with the lowest Recall@5 (the
// paper's selection metric), the first in r.Singles order on ties.
func lowestSingle(r SeedResult) string {
	name, low := "", 0.0
	for _, e := range r.Singles {
		if v := e.Metrics[paper.SelectionMetric].Mean; name == "" || v < low {
			name, low = e.Name, v
		}
	}
	return name
}

// lowestType returns the question type with the selected hybrid's lowest
// SelectionMetric, the first in questions.Types order on ties; "" when a
// type is missing.
func lowestType(r SeedResult) string {
	name, low := "", 0.0
	for _, t := range questions.Types {
		v, ok := r.SelectedByType[t]
		if !ok {
			return ""
		}
		if name == "" || v < low {
			name, low = t, v
		}
	}
	return name
}
