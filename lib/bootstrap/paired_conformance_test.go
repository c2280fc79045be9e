package bootstrap_test

import (
	"math"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/metrics"
)

// diffTol is the conformance pack's agreement for point estimates.
const diffTol = 1e-9

// Paired differences share one index matrix across methods; the point
// difference must match the pack exactly, the interval only roughly (NumPy's
// generator).
func TestPairedDiffConformance(t *testing.T) {
	qs, qrels := conformance.QuestionSet(t)
	var exp struct {
		Retrievers []struct {
			Name string `json:"name"`
			Run  string `json:"run"`
		} `json:"retrievers"`
		Paired []struct {
			A, B, Metric string
			Diff         float64
			CI           [2]float64
		} `json:"paired_differences"`
	}
	conformance.ReadJSON(t, "expected_eval.json", &exp)
	if len(exp.Paired) == 0 {
		t.Fatal("no paired differences in expected_eval.json")
	}
	results := map[string]*metrics.Result{}
	for _, r := range exp.Retrievers {
		run := conformance.ReadRun(t, r.Run)
		var err error
		if results[r.Name], err = metrics.Evaluate(qs, qrels, run, confMetrics); err != nil {
			t.Fatal(err)
		}
	}
	var ix *bootstrap.Indices
	for _, p := range exp.Paired {
		t.Run(p.A+" − "+p.B+" "+p.Metric, func(t *testing.T) {
			a, b := results[p.A], results[p.B]
			if a == nil || b == nil {
				t.Fatalf("no run for %s or %s", p.A, p.B)
			}
			if ix == nil {
				ix = bootstrap.NewIndices(bootstrap.DefaultB, len(a.QIDs), bootstrap.DefaultSeed)
			}
			diff, lo, hi := ix.PairedDiffCI(a.Scores(p.Metric), b.Scores(p.Metric), bootstrap.DefaultLevel)
			if math.Abs(diff-p.Diff) > diffTol {
				t.Errorf("diff = %.17g, want %.17g", diff, p.Diff)
			}
			if math.Abs(lo-p.CI[0]) > looseTol || math.Abs(hi-p.CI[1]) > looseTol {
				t.Errorf("CI [%v, %v], NumPy's [%v, %v]", lo, hi, p.CI[0], p.CI[1])
			}
		})
	}
}

var confMetrics = []string{"recall@5", "mrr@5", "ndcg@5", "success@5"}
