package analysis_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// tol covers the rounding of a macro mean written as a formula in a test.
const tol = 1e-15

const (
	ne  = questions.NamedEntity
	ctx = questions.Contextual
	agg = questions.Aggregate
)

func ranked(ids ...string) []ranking.Hit {
	out := make([]ranking.Hit, len(ids))
	for i, id := range ids {
		out[i] = ranking.Hit{ChunkID: id, Score: float64(len(ids) - i)}
	}
	return out
}

// fillers returns n distinct unjudged chunk IDs.
func fillers(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i)
	}
	return out
}

// fixture: seven evaluated questions and one excluded. Rank of the first
// primary gold chunk: n1 2, n2 6, c1 1, c2 none, g1 11, g2 1, g3 8.
var (
	fixtureQs = []questions.Question{
		{QID: "n1", Type: ne}, {QID: "n2", Type: ne},
		{QID: "c1", Type: ctx}, {QID: "c2", Type: ctx}, {QID: "x1", Type: ctx},
		{QID: "g1", Type: agg}, {QID: "g2", Type: agg}, {QID: "g3", Type: agg},
	}
	fixtureQrels = ranking.Qrels{
		"n1": {"a": 2},
		"n2": {"b1": 2, "b2": 2, "b3": 2},
		"c1": {"c": 2},
		"c2": {"d": 2},
		"x1": {"s": 1},
		"g1": {"e1": 2, "e2": 2},
		"g2": {"f": 2},
		"g3": {"h1": 2, "h2": 2},
	}
	fixtureRun = ranking.Run{
		"n1": ranked("x", "a"),
		"n2": ranked(append(fillers("n", 5), "b1")...),
		"c1": ranked("c"),
		"x1": ranked("s"),
		"g1": ranked(append(fillers("g", 10), "e1")...),
		"g2": ranked("f"),
		"g3": ranked(append(fillers("h", 7), "h1")...),
	}
)

func TestFailures(t *testing.T) {
	got, err := analysis.Failures(fixtureQs, fixtureQrels, fixtureRun, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []analysis.Failure{
		{QID: "n2", Type: ne, Label: analysis.LabelMultiplePrimaryGold, PrimaryGold: 3},
		{QID: "c2", Type: ctx, Label: analysis.LabelOther, PrimaryGold: 1},
		{QID: "g1", Type: agg, Label: analysis.LabelAggregate, PrimaryGold: 2},
		{QID: "g3", Type: agg, Label: analysis.LabelAggregate, PrimaryGold: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	t.Run("rule order", func(t *testing.T) {
		qs := []questions.Question{{QID: "a3", Type: agg}, {QID: "n2", Type: ne}, {QID: "c3", Type: ctx}}
		qrels := ranking.Qrels{"a3": {"1": 2, "2": 2, "3": 2}, "n2": {"1": 2, "2": 2, "3": 1}, "c3": {"1": 2, "2": 2, "3": 2}}
		fails, err := analysis.Failures(qs, qrels, nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, f := range fails {
			labels = append(labels, f.Label)
		}
		want := []string{analysis.LabelAggregate, analysis.LabelOther, analysis.LabelMultiplePrimaryGold}
		if !reflect.DeepEqual(labels, want) {
			t.Errorf("got %v, want %v", labels, want)
		}
	})
	t.Run("empty input", func(t *testing.T) {
		fails, err := analysis.Failures(nil, nil, nil, 5)
		if err != nil || len(fails) != 0 {
			t.Errorf("got %v, %v", fails, err)
		}
	})
	t.Run("k=0 is an error", func(t *testing.T) {
		if _, err := analysis.Failures(fixtureQs, fixtureQrels, fixtureRun, 0); err == nil {
			t.Error("no error")
		}
	})
}

func TestFailureTables(t *testing.T) {
	fails, err := analysis.Failures(fixtureQs, fixtureQrels, fixtureRun, 5)
	if err != nil {
		t.Fatal(err)
	}
	byType, err := analysis.FailuresByType(fixtureQs, fixtureQrels, fails)
	if err != nil {
		t.Fatal(err)
	}
	wantType := []analysis.TypeFailures{
		{Type: ne, Questions: 2, Failures: 1, Rate: 1.0 / 2},
		{Type: ctx, Questions: 2, Failures: 1, Rate: 1.0 / 2}, // x1 is excluded
		{Type: agg, Questions: 3, Failures: 2, Rate: 2.0 / 3},
		{Type: analysis.Overall, Questions: 7, Failures: 4, Rate: 4.0 / 7},
	}
	if !reflect.DeepEqual(byType, wantType) {
		t.Errorf("by type got %+v\nwant %+v", byType, wantType)
	}
	wantLabel := []analysis.LabelCount{
		{Label: analysis.LabelAggregate, Count: 2, Share: 2.0 / 4},
		{Label: analysis.LabelMultiplePrimaryGold, Count: 1, Share: 1.0 / 4}, // tie with other: rule order
		{Label: analysis.LabelOther, Count: 1, Share: 1.0 / 4},
	}
	if got := analysis.FailuresByLabel(fails); !reflect.DeepEqual(got, wantLabel) {
		t.Errorf("by label got %+v\nwant %+v", got, wantLabel)
	}
	t.Run("empty input", func(t *testing.T) {
		rows, err := analysis.FailuresByType(nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := []analysis.TypeFailures{{Type: analysis.Overall}}; !reflect.DeepEqual(rows, want) {
			t.Errorf("got %+v, want %+v", rows, want)
		}
		labels := analysis.FailuresByLabel(nil)
		if len(labels) != len(analysis.Labels) {
			t.Fatalf("got %d rows, want %d", len(labels), len(analysis.Labels))
		}
		for i, l := range labels {
			if l.Label != analysis.Labels[i] || l.Count != 0 || l.Share != 0 {
				t.Errorf("row %d = %+v", i, l)
			}
		}
	})
}

func TestRecover(t *testing.T) {
	fails, err := analysis.Failures(fixtureQs, fixtureQrels, fixtureRun, 5)
	if err != nil {
		t.Fatal(err)
	}
	got, err := analysis.Recover(fixtureQs, fixtureQrels, fixtureRun, fails, []int{10, 20})
	if err != nil {
		t.Fatal(err)
	}
	// First gold of the failures n2, c2, g1, g3 at ranks 6, none, 11, 8.
	want := []analysis.Recovery{{K: 10, Recovered: 2}, {K: 20, Recovered: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestDiagnoseAggregate(t *testing.T) {
	spans := map[string]analysis.ChunkSpan{
		"e1": {Source: "a.json", FirstDate: "2024-01-01", LastDate: "2024-01-01"},
		"e2": {Source: "b.json", FirstDate: "2024-01-01", LastDate: "2024-01-01"},
		"f":  {Source: "a.json", FirstDate: "2024-02-01", LastDate: "2024-02-02"},
		"h1": {Source: "a.json", FirstDate: "2024-03-01", LastDate: "2024-03-01"},
		// h2 has no span.
	}
	got, err := analysis.DiagnoseAggregate(fixtureQs, fixtureQrels, fixtureRun, spans, 5, []int{10, 20})
	if err != nil {
		t.Fatal(err)
	}
	want := analysis.AggregateDiagnostics{
		Questions:       3,
		MeanPrimaryGold: (2.0 + 1 + 2) / 3, // g1, g2, g3
		MultiDate:       1,                 // g2: f crosses midnight
		MultiSource:     1,                 // g1: a.json and b.json
		UnknownChunks:   1,                 // h2
		K:               5,
		Failures:        2,                                                                 // g1, g3
		Recovered:       []analysis.Recovery{{K: 10, Recovered: 1}, {K: 20, Recovered: 2}}, // g3 at 8, g1 at 11
	}
	if math.Abs(got.MeanPrimaryGold-want.MeanPrimaryGold) > tol {
		t.Errorf("MeanPrimaryGold = %v, want %v", got.MeanPrimaryGold, want.MeanPrimaryGold)
	}
	got.MeanPrimaryGold = want.MeanPrimaryGold
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestTopKSensitivity(t *testing.T) {
	rows, err := analysis.TopKSensitivity(fixtureQs, fixtureQrels, fixtureRun, analysis.SensitivityCutoffs)
	if err != nil {
		t.Fatal(err)
	}
	// Per question: recall@5, @10, @20 and success@5, @10, @20.
	//   n1 1 1 1 | 1 1 1      n2 0 1/3 1/3 | 0 1 1
	//   c1 1 1 1 | 1 1 1      c2 0 0 0     | 0 0 0
	//   g1 0 0 1/2 | 0 0 1    g2 1 1 1 | 1 1 1    g3 0 1/2 1/2 | 0 1 1
	want := []analysis.TopKRow{
		{ne, 5, 2, (1 + 0) / 2.0, (1 + 0) / 2.0},
		{ne, 10, 2, (1 + 1.0/3) / 2, (1 + 1) / 2.0},
		{ne, 20, 2, (1 + 1.0/3) / 2, (1 + 1) / 2.0},
		{ctx, 5, 2, 0.5, 0.5},
		{ctx, 10, 2, 0.5, 0.5},
		{ctx, 20, 2, 0.5, 0.5},
		{agg, 5, 3, (0 + 1 + 0) / 3.0, 1 / 3.0},
		{agg, 10, 3, (0 + 1 + 0.5) / 3, 2 / 3.0},
		{agg, 20, 3, (0.5 + 1 + 0.5) / 3, 3 / 3.0},
		{analysis.Overall, 5, 7, (1 + 0 + 1 + 0 + 0 + 1 + 0) / 7.0, 3 / 7.0},
		{analysis.Overall, 10, 7, (1 + 1.0/3 + 1 + 0 + 0 + 1 + 0.5) / 7, 5 / 7.0},
		{analysis.Overall, 20, 7, (1 + 1.0/3 + 1 + 0 + 0.5 + 1 + 0.5) / 7, 6 / 7.0},
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		g := rows[i]
		if g.Type != w.Type || g.K != w.K || g.Questions != w.Questions || math.Abs(g.Recall-w.Recall) > tol || math.Abs(g.Success-w.Success) > tol {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
	t.Run("empty input", func(t *testing.T) {
		rows, err := analysis.TopKSensitivity(nil, nil, nil, []int{5})
		if err != nil {
			t.Fatal(err)
		}
		if want := []analysis.TopKRow{{Type: analysis.Overall, K: 5}}; !reflect.DeepEqual(rows, want) {
			t.Errorf("got %+v, want %+v", rows, want)
		}
	})
}

func TestSuccessOverlap(t *testing.T) {
	qs := []questions.Question{{QID: "both", Type: ne}, {QID: "bm25", Type: ne}, {QID: "vec", Type: ctx}, {QID: "none", Type: agg}, {QID: "none2", Type: agg}, {QID: "excl", Type: ctx}}
	qrels := ranking.Qrels{"both": {"g": 2}, "bm25": {"g": 2}, "vec": {"g": 2}, "none": {"g": 2}, "none2": {"g": 2, "s": 1}, "excl": {"s": 1}}
	bm25 := ranking.Run{"both": ranked("g"), "bm25": ranked("1", "2", "3", "4", "g"), "vec": ranked("1", "2", "3", "4", "5", "g"), "none2": ranked("s"), "excl": ranked("s")}
	vector := ranking.Run{"both": ranked("x", "g"), "vec": ranked("g"), "none": ranked("x")}
	got, err := analysis.SuccessOverlap(qs, qrels, bm25, vector, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := (analysis.Overlap{BM25Only: 1, VectorOnly: 1, Both: 1, Neither: 2}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	t.Run("empty input", func(t *testing.T) {
		got, err := analysis.SuccessOverlap(nil, nil, nil, nil, 5)
		if err != nil || got != (analysis.Overlap{}) {
			t.Errorf("got %+v, %v", got, err)
		}
	})
}

func TestCandidateCeiling(t *testing.T) {
	qs := []questions.Question{{QID: "p", Type: ne}, {QID: "q", Type: ctx}}
	qrels := ranking.Qrels{"p": {"a": 2, "b": 2, "c": 2}, "q": {"d": 2, "e": 1}}
	bm25 := ranking.Run{"p": ranked("a", "x", "b"), "q": ranked("e", "d")}
	vector := ranking.Run{"p": ranked("y", "c", "b"), "q": ranked("d")}
	got, err := analysis.CandidateCeiling(qs, qrels, bm25, vector, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Top 2: p bm25 {a, x}, vector {y, c}, union {a, x, y, c}; q bm25 {e, d}, vector {d}.
	want := []analysis.CeilingRow{
		{Type: ne, Questions: 1, BM25: 1.0 / 3, Vector: 1.0 / 3, Union: 2.0 / 3},
		{Type: ctx, Questions: 1, BM25: 1, Vector: 1, Union: 1},
		{Type: analysis.Overall, Questions: 2, BM25: (1.0/3 + 1) / 2, Vector: (1.0/3 + 1) / 2, Union: (2.0/3 + 1) / 2},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Type != w.Type || g.Questions != w.Questions || math.Abs(g.BM25-w.BM25) > tol || math.Abs(g.Vector-w.Vector) > tol || math.Abs(g.Union-w.Union) > tol {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
	t.Run("depth 1 is the smallest allowed", func(t *testing.T) {
		// Top 1: p bm25 {a} 1/3, vector {y} 0, union {a, y} 1/3; q bm25 {e} 0, vector {d} 1, union {e, d} 1.
		got, err := analysis.CandidateCeiling(qs, qrels, bm25, vector, 1)
		if err != nil || len(got) != 3 || math.Abs(got[2].BM25-(1.0/3+0)/2) > tol || math.Abs(got[2].Vector-(0+1.0)/2) > tol || math.Abs(got[2].Union-(1.0/3+1)/2) > tol {
			t.Errorf("depth 1: %+v, %v", got, err)
		}
	})
	t.Run("depth 0 is an error", func(t *testing.T) {
		if _, err := analysis.CandidateCeiling(qs, qrels, bm25, vector, 0); err == nil {
			t.Error("no error")
		}
	})
	t.Run("empty input", func(t *testing.T) {
		rows, err := analysis.CandidateCeiling(nil, nil, nil, nil, analysis.CandidateDepth)
		if err != nil {
			t.Fatal(err)
		}
		if want := []analysis.CeilingRow{{Type: analysis.Overall}}; !reflect.DeepEqual(rows, want) {
			t.Errorf("got %+v, want %+v", rows, want)
		}
	})
}

func ExampleFailuresByLabel() {
	fails, err := analysis.Failures(fixtureQs, fixtureQrels, fixtureRun, 5)
	if err != nil {
		panic(err)
	}
	for _, row := range analysis.FailuresByLabel(fails) {
		fmt.Printf("%-36s %d %5.1f%%\n", row.Label, row.Count, 100*row.Share)
	}
	// Output:
	// aggregate_failure                    2  50.0%
	// multiple_primary_gold_nonaggregate   1  25.0%
	// other_rule_based_failure             1  25.0%
}
