package beyond_test

import (
	"fmt"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// compareFixture scores three hand-made runs on six questions, two of each
// type, under p: "all" ranks every question's gold first, "even" only the
// even-numbered questions', "none" never.
func compareFixture(t *testing.T, p experiment.Protocol) ([]*experiment.Evaluation, []questions.Question) {
	t.Helper()
	var qs []questions.Question
	qrels := ranking.Qrels{}
	for i := range 6 {
		qid := fmt.Sprintf("q%d", i)
		qs = append(qs, questions.Question{QID: qid, Type: questions.Types[i%len(questions.Types)]})
		qrels[qid] = map[string]int{"gold" + qid: 2}
	}
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Protocol: p}
	var evs []*experiment.Evaluation
	for _, name := range []string{"all", "even", "none"} {
		run := ranking.Run{}
		for i, q := range qs {
			hit := ranking.Hit{ChunkID: "other", Score: 1}
			if name == "all" || (name == "even" && i%2 == 0) {
				hit.ChunkID = "gold" + q.QID
			}
			run[q.QID] = []ranking.Hit{hit}
		}
		ev, err := setup.Score(name, run)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs, qs
}

// TestCompareOn: a family over a question type resamples that type's
// questions only (a fresh p.B × n matrix from p.Seed), reports p.Metrics at
// p.Level, differences p.SelectionMetric from the reference and
// Holm-adjusts over the non-reference methods.
func TestCompareOn(t *testing.T) {
	p := experiment.PaperProtocol()
	p.B, p.Seed, p.Level = 300, 9, 0.9
	p.Metrics, p.SelectionMetric = []string{metrics.Success1, metrics.MRR5}, metrics.Success1
	evs, _ := compareFixture(t, p)
	typ := questions.Types[0] // q0 and q3: "even" finds q0's gold only
	f, err := beyond.CompareOn(evs, 0, typ, p)
	if err != nil {
		t.Fatal(err)
	}
	idx := evs[0].Result.TypeIndices(typ)
	if f.Type != typ || f.Questions != len(idx) || f.Ref != 0 || len(f.Methods) != 3 {
		t.Fatalf("family %s of %d questions, ref %d, methods %v; want %s of %d, ref 0, 3 methods", f.Type, f.Questions, f.Ref, f.Methods, typ, len(idx))
	}
	ix := bootstrap.NewIndices(p.B, len(idx), p.Seed)
	var ps []float64
	for i, ev := range evs {
		for _, m := range p.Metrics {
			x := beyond.Subset(ev.Result.Scores(m), idx)
			mean, lo, hi := ix.MeanCI(x, p.Level)
			if got := f.Scores[i][m]; got != (experiment.Interval{Mean: mean, Lo: lo, Hi: hi}) {
				t.Errorf("%s %s: %+v, want the subset's MeanCI %v [%v, %v]", ev.Name, m, got, mean, lo, hi)
			}
		}
		if i == 0 {
			if f.Diffs[0] != nil {
				t.Errorf("reference has a difference: %+v", f.Diffs[0])
			}
			continue
		}
		a := beyond.Subset(ev.Result.Scores(p.SelectionMetric), idx)
		b := beyond.Subset(evs[0].Result.Scores(p.SelectionMetric), idx)
		d, lo, hi := ix.PairedDiffCI(a, b, p.Level)
		got := f.Diffs[i]
		if got.Mean != d || got.Lo != lo || got.Hi != hi || got.P != ix.PairedP(a, b) {
			t.Errorf("%s − all: %+v, want %v [%v, %v] p %v", ev.Name, got, d, lo, hi, ix.PairedP(a, b))
		}
		ps = append(ps, got.P)
	}
	for j, h := range bootstrap.Holm(ps) {
		if f.Diffs[j+1].Holm != h {
			t.Errorf("%s: Holm %v, want %v (bootstrap.Holm over the two differences)", f.Methods[j+1], f.Diffs[j+1].Holm, h)
		}
	}
	if f.Diffs[2].Mean != -1 {
		t.Errorf("none − all on %s: %v, want −1 (every gold missed against every gold found)", typ, f.Diffs[2].Mean)
	}
}

func TestCompareOnErrors(t *testing.T) {
	p := experiment.PaperProtocol()
	p.B, p.Seed = 50, 1
	p.Metrics, p.SelectionMetric = []string{metrics.Success1}, metrics.Success1
	evs, _ := compareFixture(t, p)
	for _, ref := range []int{-1, len(evs)} {
		if _, err := beyond.CompareOn(evs, ref, beyond.Overall, p); err == nil {
			t.Errorf("reference %d of %d: no error", ref, len(evs))
		}
	}
	if _, err := beyond.CompareOn(nil, 0, beyond.Overall, p); err == nil {
		t.Error("no evaluations: no error")
	}
	other := p
	other.Metrics = []string{metrics.Success1, metrics.NDCG5}
	if _, err := beyond.CompareOn(evs, 0, beyond.Overall, other); err == nil {
		t.Error("a metric the evaluations lack: no error")
	}
	short := *evs[1]
	res := *short.Result
	res.QIDs = res.QIDs[1:]
	short.Result = &res
	if _, err := beyond.CompareOn([]*experiment.Evaluation{evs[0], &short}, 0, beyond.Overall, p); err == nil {
		t.Error("evaluations on different questions: no error")
	}
}
