package metrics_test

import (
	"math"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/trec"
)

// The same qrels and run as trec_eval would read them. With
// `trec_eval -l 2 -m recall.5 -m success.5` the recall and success values
// below are trec_eval's too (its default -l 1 would also count rel-1
// chunks). trec_eval's ndcg_cut.5 uses gain rel, not 2^rel − 1, and would
// report (2/log2(2) + 1/log2(4)) / (2/log2(2) + 2/log2(3) + 1/log2(4)) for
// t1 instead of the value pinned here. Scores strictly decrease with rank, so
// trec_eval's re-sorting by score keeps this order.
const interopQrels = `
t1 0 d1 2
t1 0 d2 2
t1 0 d3 1
t1 0 d9 0
t2 0 d4 2
t2 0 d5 1
`

const interopRun = `t1 Q0 d1 1 9.5 sys
t1 Q0 d7 2 8.25 sys
t1 Q0 d3 3 7 sys
t1 Q0 d9 4 6 sys
t1 Q0 d8 5 5 sys
t1 Q0 d2 6 4 sys
t2 Q0 d5 1 0.9 sys
t2 Q0 d6 2 0.8 sys
t2 Q0 d4 3 0.7 sys
`

func TestTRECInterop(t *testing.T) {
	qrels, err := trec.ReadQrels("interop.qrels", strings.NewReader(interopQrels))
	if err != nil {
		t.Fatal(err)
	}
	run, err := trec.ReadRun("interop.run", strings.NewReader(interopRun))
	if err != nil {
		t.Fatal(err)
	}
	qs := []questions.Question{{QID: "t1", Type: questions.Contextual}, {QID: "t2", Type: questions.NamedEntity}}
	res, err := metrics.Evaluate(qs, qrels, run, []string{"recall@5", "success@5", "mrr@5", "ndcg@5"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{
		"recall@5":  {1.0 / 2, 1.0 / 1}, // t1: d1 of {d1, d2} (d2 is at rank 6); t2: d4
		"success@5": {1, 1},
		"mrr@5":     {1.0 / 1, 1.0 / 3}, // first rel-2 at rank 1; at rank 3
		"ndcg@5": {
			(3/math.Log2(2) + 1/math.Log2(4)) / (3/math.Log2(2) + 3/math.Log2(3) + 1/math.Log2(4)), // t1 rel = 2, 0, 1, 0, 0; ideal 2, 2, 1, 0
			(1/math.Log2(2) + 3/math.Log2(4)) / (3/math.Log2(2) + 1/math.Log2(3)),                  // t2 rel = 1, 0, 2; ideal 2, 1
		},
	}
	for name, w := range want {
		got := res.Scores(name)
		for i := range w {
			if math.Abs(got[i]-w[i]) > tol {
				t.Errorf("%s %s = %.17g, want %.17g", name, res.QIDs[i], got[i], w[i])
			}
		}
	}
}
