package experiment_test

import (
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
)

// TestSetupDrawsItsResamplesFromItsOwnSeed: a Setup's intervals come from
// NewIndices(B, n, Protocol.Seed), not from the paper's seed.
func TestSetupDrawsItsResamplesFromItsOwnSeed(t *testing.T) {
	s := fixture()
	s.Protocol.Seed = 1
	ev, err := s.Evaluate("raw_text_vector")
	if err != nil {
		t.Fatal(err)
	}
	x := ev.Result.Scores(metrics.MRR5)
	n := len(x)
	own, paper := bootstrap.NewIndices(s.Protocol.B, n, 1), bootstrap.NewIndices(s.Protocol.B, n, 12345)
	ix := s.Indices(n)
	same, differsFromPaper := true, false
	for r := range s.Protocol.B {
		same = same && slices.Equal(ix.Row(r), own.Row(r))
		differsFromPaper = differsFromPaper || !slices.Equal(ix.Row(r), paper.Row(r))
	}
	if !same {
		t.Error("the Setup's resamples are not NewIndices(B, n, 1)")
	}
	if !differsFromPaper {
		t.Fatal("seeds 1 and 12345 draw the same resamples: the test cannot tell them apart")
	}
	_, lo, hi := own.MeanCI(x, s.Protocol.Level)
	if got := ev.CI[metrics.MRR5]; got.Lo != lo || got.Hi != hi {
		t.Errorf("MRR@5 interval [%v, %v], want [%v, %v] from seed 1", got.Lo, got.Hi, lo, hi)
	}
}

func config(name, pairing string, beta, recall float64) experiment.Config {
	return experiment.Config{Name: name, Pairing: pairing, Beta: beta, Result: &metrics.Result{Mean: map[string]float64{metrics.Recall5: recall}}}
}

// TestBestOfTakesTheFirstMaximumOfAPairing: ties go to the smallest β.
func TestBestOfTakesTheFirstMaximumOfAPairing(t *testing.T) {
	w := &experiment.Sweep{Configs: []experiment.Config{
		config("a@0.10", "P", 0.10, 0.4),
		config("a@0.20", "P", 0.20, 0.6),
		config("b@0.20", "Q", 0.20, 0.9),
		config("a@0.30", "P", 0.30, 0.6),
		config("a@0.40", "P", 0.40, 0.5),
	}}
	got, ok := w.BestOf("P", metrics.Recall5)
	if !ok || got.Name != "a@0.20" {
		t.Errorf("BestOf(P) = %s, %v; want a@0.20, the first of the two maxima", got.Name, ok)
	}
	if _, ok := w.BestOf("R", metrics.Recall5); ok {
		t.Error("BestOf of a pairing with no configuration found one")
	}
}

// TestPaperSelectionMetricIsRecallAt5 pins spec §10: "the first … that
// attains the maximum Recall@5".
func TestPaperSelectionMetricIsRecallAt5(t *testing.T) {
	if got := experiment.PaperProtocol().SelectionMetric; got != "recall@5" {
		t.Errorf("PaperProtocol().SelectionMetric = %q, want recall@5", got)
	}
}

// TestPairedDifferenceIsAMinusB uses two runs with a known difference: a
// finds every question's primary gold first, b finds none.
func TestPairedDifferenceIsAMinusB(t *testing.T) {
	s := fixture()
	good := ranking.Run{"q1": {{ChunkID: "c1", Score: 1}}, "q2": {{ChunkID: "c2", Score: 1}}}
	bad := ranking.Run{"q1": {{ChunkID: "c0", Score: 1}}, "q2": {{ChunkID: "c0", Score: 1}}}
	a, err := s.Score("good", good)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Score("bad", bad)
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.PairedDifference(a, b, metrics.Recall5)
	if err != nil {
		t.Fatal(err)
	}
	// mean(a) − mean(b) = 1 − 0; every resample's difference is 1 as well.
	if d.Mean != 1 || d.Lo != 1 || d.Hi != 1 || d.A != "good" || d.B != "bad" {
		t.Errorf("good − bad = %+v, want 1 [1, 1]", d)
	}
	r, err := s.PairedDifference(b, a, metrics.Recall5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Mean != -1 || !(r.Lo <= r.Mean && r.Mean <= r.Hi) {
		t.Errorf("bad − good = %+v, want −1 inside its interval", r)
	}
}
