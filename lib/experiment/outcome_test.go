package experiment_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

func TestOutcomeRunsTheProtocolOnce(t *testing.T) {
	s := fixture()
	o := experiment.NewOutcome(s)
	var steps []string
	o.Step = func(what string, f func() error) error {
		steps = append(steps, what)
		return f()
	}
	if _, done := o.SinglesDone(); done {
		t.Fatal("SinglesDone before any evaluation")
	}
	singles, err := o.Singles()
	if err != nil {
		t.Fatal(err)
	}
	if len(singles) != len(s.Protocol.Singles) {
		t.Fatalf("%d singles, want the protocol's %d", len(singles), len(s.Protocol.Singles))
	}
	for i, ev := range singles {
		if ev.Name != s.Protocol.Singles[i] {
			t.Errorf("single %d = %s, want %s (Protocol.Singles order)", i, ev.Name, s.Protocol.Singles[i])
		}
	}
	if n, done := o.SinglesDone(); !done || n != len(singles[0].Result.QIDs) {
		t.Errorf("SinglesDone = %d, %v; want %d, true", n, done, len(singles[0].Result.QIDs))
	}
	sel, cfg, err := o.Selected()
	if err != nil {
		t.Fatal(err)
	}
	again, cfg2, err := o.Selected()
	if err != nil {
		t.Fatal(err)
	}
	if again != sel || cfg2.Name != cfg.Name {
		t.Error("a second Selected evaluated again instead of returning the kept evaluation")
	}
	if _, _, err := o.BestOf(cfg.Pairing); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Singles(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"single retrievers", "hybrid sweep (6 pairings × 21 β)"}; len(steps) != 2 || steps[0] != want[0] || steps[1] != want[1] {
		t.Errorf("steps %q, want %q: each computation once", steps, want)
	}
	sw, err := o.Sweep()
	if err != nil {
		t.Fatal(err)
	}
	if sw.SelectedConfig().Name != cfg.Name {
		t.Errorf("Selected %s, the sweep selected %s", cfg.Name, sw.SelectedConfig().Name)
	}
	if sel.Result.Mean[metrics.Recall5] != cfg.Result.Mean[metrics.Recall5] {
		t.Errorf("selected evaluation %v, its sweep configuration %v", sel.Result.Mean[metrics.Recall5], cfg.Result.Mean[metrics.Recall5])
	}
}

func TestOutcomeBestSingleIsTheFirstMaximum(t *testing.T) {
	s := fixture()
	o := experiment.NewOutcome(s)
	singles, err := o.Singles()
	if err != nil {
		t.Fatal(err)
	}
	best, err := o.BestSingle()
	if err != nil {
		t.Fatal(err)
	}
	m := s.Protocol.SelectionMetric
	first := 0
	for i, ev := range singles {
		if ev.Result.Mean[m] > singles[first].Result.Mean[m] {
			first = i
		}
	}
	if best != singles[first] {
		t.Errorf("best single %s (%s %v), want the first maximum %s (%v)", best.Name, m, best.Result.Mean[m], singles[first].Name, singles[first].Result.Mean[m])
	}
}

func TestOutcomeErrors(t *testing.T) {
	s := fixture()
	o := experiment.NewOutcome(s)
	if _, _, err := o.BestOf("no such pairing"); err == nil {
		t.Error("BestOf of an unknown pairing: no error")
	}
	if _, _, err := o.Components("no such pairing"); err == nil {
		t.Error("Components of an unknown pairing: no error")
	}
	bad := fixture()
	bad.Protocol.Singles = []string{"no_such_retriever"}
	if _, err := experiment.NewOutcome(bad).Singles(); err == nil {
		t.Error("an unknown single retriever: no error")
	}
}

func TestOutcomeIsSafeForConcurrentUse(t *testing.T) {
	o := experiment.NewOutcome(fixture())
	var wg sync.WaitGroup
	evs := make([]*experiment.Evaluation, 4)
	for i := range evs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			evs[i], _, _ = o.Selected()
		}()
	}
	wg.Wait()
	for _, ev := range evs {
		if ev == nil || ev != evs[0] {
			t.Fatal("concurrent Selected calls returned different evaluations")
		}
	}
}

// The paper's protocol on a three-chunk history, run once: the single
// retrievers, the sweep's selection and the best single retriever all come
// from the same Outcome, and asking again reuses what it ran. Every
// retriever finds both questions' gold here, so the first maximum wins: the
// first single retriever and the first pairing at β = 0.
func ExampleOutcome() {
	o := experiment.NewOutcome(fixture())
	o.Step = func(what string, f func() error) error {
		fmt.Println("running", what)
		return f()
	}
	best, err := o.BestSingle()
	if err != nil {
		fmt.Println(err)
		return
	}
	sel, cfg, err := o.Selected()
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, _, err := o.Selected(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best single %s: recall@5 %.3f\n", best.Name, best.Result.Mean[metrics.Recall5])
	fmt.Printf("selected %s: recall@5 %.3f\n", cfg.Name, sel.Result.Mean[metrics.Recall5])
	// Output:
	// running single retrievers
	// running hybrid sweep (6 pairings × 21 β)
	// best single raw_text_bm25: recall@5 1.000
	// selected hybrid:summary_bm25+summary_vector@0.00: recall@5 1.000
}

// TestOutcomeComponentsOfEveryPairing: each swept pairing's components are
// the evaluations of its own BM25 and vector retrievers.
func TestOutcomeComponentsOfEveryPairing(t *testing.T) {
	s := fixture()
	o := experiment.NewOutcome(s)
	if len(s.Protocol.Pairings) < 2 {
		t.Fatalf("the fixture sweeps %d pairings; the test needs two or more", len(s.Protocol.Pairings))
	}
	for _, p := range s.Protocol.Pairings {
		sparse, vec, err := o.Components(p.Label)
		if err != nil {
			t.Fatalf("%s: %v", p.Label, err)
		}
		if sparse == nil || vec == nil || sparse.Name != p.BM25.Name() || vec.Name != p.Vector.Name() {
			t.Errorf("%s: components %v and %v, want evaluations of %s and %s", p.Label, sparse, vec, p.BM25.Name(), p.Vector.Name())
		}
	}
}
