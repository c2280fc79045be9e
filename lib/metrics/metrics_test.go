package metrics_test

import (
	"math"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
)

// tol covers log2 and division rounding between the formula written in a test
// and the package's accumulation order.
const tol = 1e-12

func hits(ids ...string) []ranking.Hit {
	out := make([]ranking.Hit, len(ids))
	for i, id := range ids {
		out[i] = ranking.Hit{ChunkID: id, Score: float64(len(ids) - i)}
	}
	return out
}

// judged is the qrels of one question used by most cases: three primary gold
// chunks g1…g3, one secondary chunk s1 and one judged-irrelevant chunk z.
var judged = map[string]int{"g1": 2, "g2": 2, "g3": 2, "s1": 1, "z": 0}

// idcg5 is the ideal DCG@5 of judged: rel = 2, 2, 2, 1, 0.
var idcg5 = 3/math.Log2(2) + 3/math.Log2(3) + 3/math.Log2(4) + 1/math.Log2(5)

func TestMetrics(t *testing.T) {
	cases := []struct {
		name   string
		fn     metrics.Func
		ranked []ranking.Hit
		judged map[string]int
		k      int
		want   float64
	}{
		{"recall/empty run", metrics.Recall, nil, judged, 5, 0},
		{"recall/k=0", metrics.Recall, hits("g1"), judged, 0, 0},
		{"recall/empty G2", metrics.Recall, hits("s1"), map[string]int{"s1": 1}, 5, 0},
		{"recall/two of three", metrics.Recall, hits("x", "g2", "s1", "g1", "y"), judged, 5, 2.0 / 3}, // rel = 0, 2, 1, 2, 0
		{"recall/cut at k", metrics.Recall, hits("g1", "x", "g2"), judged, 2, 1.0 / 3},                // rel = 2, 0 | 2
		{"recall/k beyond list", metrics.Recall, hits("g3"), judged, 100, 1.0 / 3},
		{"recall/duplicate counts once", metrics.Recall, hits("g1", "g1"), judged, 5, 1.0 / 3},
		{"recall/secondary is not gold", metrics.Recall, hits("s1"), judged, 5, 0},
		{"mrr/empty run", metrics.MRR, nil, judged, 5, 0},
		{"mrr/k=0", metrics.MRR, hits("g1"), judged, 0, 0},
		{"mrr/first rank", metrics.MRR, hits("g1", "g2"), judged, 5, 1},
		{"mrr/third rank", metrics.MRR, hits("s1", "x", "g2"), judged, 5, 1.0 / 3}, // rel = 1, 0, 2
		{"mrr/beyond k", metrics.MRR, hits("s1", "x", "g2"), judged, 2, 0},
		{"mrr/empty G2", metrics.MRR, hits("s1"), map[string]int{"s1": 1}, 5, 0},
		{"success/empty run", metrics.Success, nil, judged, 5, 0},
		{"success/k=0", metrics.Success, hits("g1"), judged, 0, 0},
		{"success/hit at k", metrics.Success, hits("x", "y", "g3"), judged, 3, 1},
		{"success/miss", metrics.Success, hits("x", "s1", "z", "g3"), judged, 3, 0},
		{"ndcg/empty run", metrics.NDCG, nil, judged, 5, 0},
		{"ndcg/k=0", metrics.NDCG, hits("g1"), judged, 0, 0},
		{"ndcg/IDCG=0", metrics.NDCG, hits("z", "x"), map[string]int{"z": 0}, 5, 0},
		{"ndcg/no qrels", metrics.NDCG, hits("x"), nil, 5, 0},
		{"ndcg/ideal", metrics.NDCG, hits("g2", "g1", "g3", "s1"), judged, 5, 1},
		{"ndcg/mixed", metrics.NDCG, hits("g1", "x", "s1"), judged, 5,
			(3/math.Log2(2) + 1/math.Log2(4)) / idcg5}, // rel = 2, 0, 1
		{"ndcg/unretrieved gold lowers IDCG share", metrics.NDCG, hits("s1"), judged, 5,
			(1 / math.Log2(2)) / idcg5}, // rel = 1
		{"ndcg/k=2", metrics.NDCG, hits("s1", "g1", "g2"), judged, 2,
			(1/math.Log2(2) + 3/math.Log2(3)) / (3/math.Log2(2) + 3/math.Log2(3))}, // rel = 1, 2 | 2
		{"ndcg/only secondary judged", metrics.NDCG, hits("x", "s1"), map[string]int{"s1": 1}, 5,
			(1 / math.Log2(3)) / (1 / math.Log2(2))}, // rel = 0, 1
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.fn(c.ranked, c.judged, c.k); math.Abs(got-c.want) > tol {
				t.Errorf("got %.17g, want %.17g", got, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	good := []struct {
		name   string
		family string
		k      int
	}{{"recall@5", "recall", 5}, {"mrr@10", "mrr", 10}, {"success@20", "success", 20}, {"ndcg@5", "ndcg", 5}, {"ndcg@1", "ndcg", 1}}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			m, err := metrics.Parse(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if m.Name != c.name || m.Family != c.family || m.K != c.k {
				t.Errorf("got %+v", m)
			}
		})
	}
	for _, name := range []string{"", "recall", "recall@", "recall@0", "recall@-1", "recall@05", "recall@5x", "map@5", "Recall@5", "@5"} {
		t.Run("bad "+name, func(t *testing.T) {
			_, err := metrics.Parse(name)
			if err == nil {
				t.Fatal("no error")
			}
			for _, f := range metrics.Families() {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("error %q does not list %q", err, f)
				}
			}
		})
	}
}

func TestMetricScoreMatchesFunc(t *testing.T) {
	m, err := metrics.Parse("ndcg@2")
	if err != nil {
		t.Fatal(err)
	}
	ranked := hits("s1", "g1", "g2")
	if got, want := m.Score(ranked, judged), metrics.NDCG(ranked, judged, 2); got != want {
		t.Errorf("Score = %v, NDCG = %v", got, want)
	}
}

func TestMean(t *testing.T) {
	cases := []struct {
		name string
		x    []float64
		want float64
	}{
		{"empty", nil, 0},
		{"one", []float64{0.25}, 0.25},
		{"thirds", []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1.0 / 3},
		{"cancellation", []float64{1e100, 1, -1e100}, 1.0 / 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := metrics.Mean(c.x); got != c.want {
				t.Errorf("got %.17g, want %.17g", got, c.want)
			}
		})
	}
	t.Run("order independent", func(t *testing.T) {
		// 0.1 + 0.2 + 0.3 is 0.6000000000000001 left to right but 0.6 right to left.
		a := metrics.Mean([]float64{0.1, 0.2, 0.3})
		b := metrics.Mean([]float64{0.3, 0.2, 0.1})
		sum, n := 0.6, 3.0 // the correctly rounded sum; variables so the division rounds at run time
		if want := sum / n; a != want || b != want {
			t.Errorf("Mean(0.1, 0.2, 0.3) = %.17g, reversed %.17g, want %.17g", a, b, want)
		}
	})
}

func TestNamesParse(t *testing.T) {
	for _, c := range []struct {
		name, family string
		k            int
	}{
		{metrics.Recall5, "recall", 5}, {metrics.Recall10, "recall", 10}, {metrics.Recall20, "recall", 20},
		{metrics.MRR5, "mrr", 5}, {metrics.NDCG5, "ndcg", 5}, {metrics.Success5, "success", 5},
	} {
		m, err := metrics.Parse(c.name)
		if err != nil || m.Family != c.family || m.K != c.k {
			t.Errorf("Parse(%q) = %+v, %v; want family %s, k %d", c.name, m, err, c.family, c.k)
		}
	}
}

func TestLabel(t *testing.T) {
	cases := []struct{ name, want string }{
		{metrics.Recall5, "Recall@5"},
		{"recall@10", "Recall@10"},
		{metrics.MRR5, "MRR@5"},
		{metrics.NDCG5, "nDCG@5"},
		{"ndcg@10", "nDCG@10"},
		{metrics.Success1, "Success@1"},
		{"recall_any@5", "Recall_any@5"},
		{"precision@5", "precision@5"}, // unknown family: unchanged
		{"recall@0", "recall@0"},       // bad cutoff: unchanged
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := metrics.Label(c.name); got != c.want {
				t.Errorf("Label(%q) = %q, want %q", c.name, got, c.want)
			}
		})
	}
}
