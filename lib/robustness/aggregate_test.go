package robustness_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/robustness"
)

// fakeResult builds a seed result whose single retriever i scores base+i·step
// in every metric, with a question-level interval of ±0.1, a selected hybrid
// of pairing at beta scoring hybrid, and a gain over the best single.
func fakeResult(seed uint64, base, step, hybrid float64, pairing string, beta float64, byType map[string]float64) robustness.SeedResult {
	r := robustness.SeedResult{Seed: seed, Chunks: 10, Questions: 100, Gain: map[string]experiment.Interval{}, SelectedByType: byType}
	iv := func(v float64) map[string]experiment.Interval {
		m := map[string]experiment.Interval{}
		for _, metric := range paper.Metrics {
			m[metric] = experiment.Interval{Mean: v, Lo: v - 0.1, Hi: v + 0.1}
		}
		return m
	}
	best, bestV := "", math.Inf(-1)
	for i, name := range paper.Singles {
		v := base + float64(i)*step
		r.Singles = append(r.Singles, robustness.Estimate{Name: name, Metrics: iv(v)})
		if v > bestV {
			best, bestV = name, v
		}
	}
	r.BestSingle = best
	r.Selected = robustness.Hybrid{Estimate: robustness.Estimate{Name: "hybrid:" + pairing, Metrics: iv(hybrid)}, Pairing: pairing, Beta: beta}
	for _, metric := range paper.Metrics {
		d := hybrid - bestV
		r.Gain[metric] = experiment.Interval{Mean: d, Lo: d - 0.05, Hi: d + 0.05}
	}
	return r
}

// paper is the protocol the fake results were evaluated under.
var paper = experiment.PaperProtocol()

// protocol is the paper's protocol with a seed-level bootstrap of b
// resamples from seed.
func protocol(b int, seed uint64) experiment.Protocol {
	p := experiment.PaperProtocol()
	p.B, p.Seed = b, seed
	return p
}

var typesAggregateLowest = map[string]float64{"named_entity": 0.8, "contextual": 0.7, "aggregate": 0.3}

func fakeResults() []robustness.SeedResult {
	return []robustness.SeedResult{
		fakeResult(1, 0.40, 0.05, 0.70, "E-BM25+E-Vec", 0.45, typesAggregateLowest),                                                         // Table 3 order, gain +0.10
		fakeResult(2, 0.60, -0.05, 0.62, "E-BM25+S-Vec", 0.50, typesAggregateLowest),                                                        // reversed order, gain +0.02
		fakeResult(3, 0.50, 0.02, 0.55, "E-BM25+E-Vec", 0.45, map[string]float64{"named_entity": 0.2, "contextual": 0.7, "aggregate": 0.3}), // gain −0.03
	}
}

func TestAggregate(t *testing.T) {
	const b, seed = 2000, 7
	s, err := robustness.Aggregate(fakeResults(), protocol(b, seed))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Seeds, []uint64{1, 2, 3}) || !slices.Equal(s.Metrics, paper.Metrics) {
		t.Fatalf("seeds %v metrics %v", s.Seeds, s.Metrics)
	}
	const tol = 1e-12 // sums of three values, reassociated
	// raw_text_bm25 (i = 0) scores the base: 0.40, 0.60, 0.50.
	row, ok := s.Row("raw_text_bm25", "recall@5")
	if !ok {
		t.Fatal("no raw_text_bm25 recall@5 row")
	}
	vals := []float64{0.40, 0.60, 0.50}
	sorted := []float64{0.40, 0.50, 0.60}
	want := robustness.Distribution{
		Values: vals,
		Mean:   (0.40 + 0.60 + 0.50) / 3,
		Min:    0.40, Max: 0.60,
		P10: 0.40 + 0.2*(0.50-0.40), // h = (3−1)·0.1 = 0.2
		P90: 0.50 + 0.8*(0.60-0.50), // h = 1.8
	}
	_, lo, hi := bootstrap.NewIndices(b, 3, seed).MeanCI(vals, bootstrap.DefaultLevel)
	for name, got := range map[string][2]float64{
		"mean": {row.Mean, want.Mean}, "min": {row.Min, want.Min}, "max": {row.Max, want.Max},
		"p10": {row.P10, want.P10}, "p90": {row.P90, want.P90},
		"seed lo": {row.SeedCI.Lo, lo}, "seed hi": {row.SeedCI.Hi, hi},
		"question lo": {row.QuestionCI.Lo, want.Mean - 0.1}, "question hi": {row.QuestionCI.Hi, want.Mean + 0.1},
	} {
		if math.Abs(got[0]-got[1]) > tol {
			t.Errorf("%s = %v, want %v", name, got[0], got[1])
		}
	}
	if !slices.Equal(row.Values, vals) || bootstrap.Quantile7(sorted, 0.1) != row.P10 {
		t.Errorf("values %v p10 %v", row.Values, row.P10)
	}
	// Gains on Recall@5: 0.70 − 0.60, 0.62 − 0.60, 0.55 − 0.58.
	gain, _ := s.Row(robustness.HybridGain, "recall@5")
	if math.Abs(gain.Mean-(0.10+0.02-0.03)/3) > tol {
		t.Errorf("gain mean %v", gain.Mean)
	}
	if s.HybridWins["recall@5"] != 2 || s.HybridWinsCI["recall@5"] != 1 {
		t.Errorf("hybrid wins %d (CI above 0: %d), want 2 (1)", s.HybridWins["recall@5"], s.HybridWinsCI["recall@5"])
	}
	counts := map[string]int{}
	for _, c := range s.Pairings {
		counts[c.Label] = c.Seeds
	}
	if len(s.Pairings) != 6 || counts["E-BM25+E-Vec"] != 2 || counts["E-BM25+S-Vec"] != 1 {
		t.Errorf("pairings %+v", s.Pairings)
	}
	if len(s.Configs) != 2 || s.Configs[0].Label != "E-BM25+E-Vec@0.45" || s.Configs[0].Seeds != 2 {
		t.Errorf("configs %+v", s.Configs)
	}
	best := map[string]int{}
	for _, c := range s.BestSingles {
		best[c.Label] = c.Seeds
	}
	if best["embedding_text_bm25"] != 2 || best["raw_text_bm25"] != 1 {
		t.Errorf("best singles %+v", s.BestSingles)
	}
	if len(s.Orders) != 10 {
		t.Fatalf("%d pairwise orders, want 10", len(s.Orders))
	}
	for _, o := range s.Orders {
		if o.Above["recall@5"] != 2 { // seeds 1 and 3 rise, seed 2 falls
			t.Errorf("%s < %s holds on %d seeds, want 2", o.Lower, o.Upper, o.Above["recall@5"])
		}
	}
	if s.FullOrder["recall@5"] != 2 {
		t.Errorf("full order on %d seeds, want 2", s.FullOrder["recall@5"])
	}
	wantClaims := []int{
		2, // embedding_text_bm25 best: seeds 1, 3
		2, // raw_text_bm25 lowest: seeds 1, 3
		2, // Table 3 order
		2, // E-BM25+E-Vec selected: seeds 1, 3
		2, // hybrid above best single: seeds 1, 2
		1, // and its CI above 0: seed 1
		2, // aggregate lowest: seeds 1, 2
	}
	if len(s.Claims) != len(wantClaims) {
		t.Fatalf("%d claims, want %d", len(s.Claims), len(wantClaims))
	}
	for i, c := range s.Claims {
		if c.Seeds != wantClaims[i] {
			t.Errorf("claim %q holds on %d seeds, want %d", c.Statement, c.Seeds, wantClaims[i])
		}
	}
}

// TestAggregateIgnoresOrder: results in any order give the same summary.
func TestAggregateIgnoresOrder(t *testing.T) {
	rs := fakeResults()
	first, err := robustness.Aggregate(rs, protocol(500, 1))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 5 {
		rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		again, err := robustness.Aggregate(rs, protocol(500, 1))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := summaryJSON(t, first), summaryJSON(t, again); a != b {
			t.Fatalf("summary depends on the order of results:\n%s\n%s", a, b)
		}
	}
}

// summaryJSON encodes everything of a summary but the claims' functions.
func summaryJSON(t *testing.T, s *robustness.Summary) string {
	t.Helper()
	claims := make([]int, len(s.Claims))
	for i, c := range s.Claims {
		claims[i] = c.Seeds
	}
	c := *s
	c.Claims = nil
	b, err := json.Marshal(struct {
		S      robustness.Summary
		Claims []int
	}{c, claims})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAggregateEdgeCases(t *testing.T) {
	if _, err := robustness.Aggregate(nil, protocol(100, 1)); err == nil {
		t.Error("no results: want an error")
	}
	rs := fakeResults()
	if _, err := robustness.Aggregate(append(rs, rs[0]), protocol(100, 1)); err == nil {
		t.Error("a seed twice: want an error")
	}
	if _, err := robustness.Aggregate(rs, protocol(0, 1)); err == nil {
		t.Error("B = 0: want an error (a zero is not the paper's B)")
	}
	broken := fakeResults()[:1]
	broken[0].Singles = broken[0].Singles[1:]
	if _, err := robustness.Aggregate(broken, protocol(100, 1)); err == nil {
		t.Error("a missing single retriever: want an error")
	}
	one, err := robustness.Aggregate(fakeResults()[:1], protocol(100, 1))
	if err != nil {
		t.Fatal(err)
	}
	row, _ := one.Row("summary_vector", "ndcg@5")
	if v := 0.40 + 2*0.05; math.Abs(row.SeedCI.Lo-v) > 1e-12 || math.Abs(row.SeedCI.Hi-v) > 1e-12 || row.P10 != row.P90 {
		t.Errorf("one seed: seed-level interval %+v, P10–P90 %v–%v; want degenerate at %v", row.SeedCI, row.P10, row.P90, v)
	}
}
