package metrics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/ranking"
)

func TestRandomFloorsClosedForm(t *testing.T) {
	const tol = 1e-12 // a handful of products and sums
	for _, tc := range []struct {
		name                string
		n, g, k             int
		recall, success, rr float64
	}{
		{"one relevant of 10 at 5", 10, 1, 5, 5.0 / 10, 5.0 / 10, (1.0 + 1.0/2 + 1.0/3 + 1.0/4 + 1.0/5) / 10},
		// first hit at r: P(1) = 2/10, P(2) = 8/10·2/9, P(3) = 8/10·7/9·2/8
		{"two relevant of 10 at 3", 10, 2, 3, 3.0 / 10, 1 - (8.0*7*6)/(10.0*9*8), 2.0/10 + (8.0/10*2/9)/2 + (8.0/10*7/9*2/8)/3},
		{"k beyond the corpus", 4, 1, 50, 1, 1, (1.0 + 1.0/2 + 1.0/3 + 1.0/4) / 4},
		{"every unit relevant", 6, 6, 5, 5.0 / 6, 1, 1},
		{"k = 0", 10, 1, 0, 0, 0, 0},
		{"empty corpus", 0, 1, 5, 0, 0, 0},
		{"no relevant unit", 10, 0, 5, 0, 0, 0},
		{"negative k", 10, 1, -3, 0, 0, 0},
		{"negative g", 10, -2, 5, 0, 0, 0},
		{"negative n", -4, 1, 5, 0, 0, 0},
		{"every irrelevant unit drawn", 5, 2, 4, 4.0 / 5, 1, 2.0/5 + (3.0/5*2/4)/2 + (3.0/5*2/4*2/3)/3 + (3.0/5*2/4*1/3*2/2)/4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				metric    string
				got, want float64
			}{
				{"recall", metrics.RandomRecall(tc.n, tc.g, tc.k), tc.recall},
				{"success", metrics.RandomSuccess(tc.n, tc.g, tc.k), tc.success},
				{"mrr", metrics.RandomMRR(tc.n, tc.g, tc.k), tc.rr},
			} {
				if !(math.Abs(c.got-c.want) <= tol) { // NaN fails too
					t.Errorf("%s = %.15f, want %.15f", c.metric, c.got, c.want)
				}
			}
		})
	}
}

// The closed forms equal the mean of Recall, Success and MRR over seeded
// uniform random rankings.
func TestRandomFloorsSimulation(t *testing.T) {
	const trials = 40_000
	const tol = 1e-2 // 4 standard errors of a mean of values in [0, 1] over 40,000 draws (sd ≤ 0.5)
	rng := rand.New(rand.NewPCG(12345, 12345))
	for _, tc := range []struct{ n, g, k int }{{19, 1, 5}, {32, 3, 5}, {600, 2, 10}, {7, 2, 25}} {
		t.Run(fmt.Sprintf("n=%d g=%d k=%d", tc.n, tc.g, tc.k), func(t *testing.T) {
			judged := map[string]int{}
			for i := range tc.g {
				judged[fmt.Sprint(i)] = metrics.PrimaryRel
			}
			var recall, success, rr float64
			ids := make([]string, tc.n)
			for i := range ids {
				ids[i] = fmt.Sprint(i)
			}
			ranked := make([]ranking.Hit, tc.n)
			for range trials {
				for i, p := range rng.Perm(tc.n) {
					ranked[i] = ranking.Hit{ChunkID: ids[p]}
				}
				recall += metrics.Recall(ranked, judged, tc.k)
				success += metrics.Success(ranked, judged, tc.k)
				rr += metrics.MRR(ranked, judged, tc.k)
			}
			for _, c := range []struct {
				metric    string
				sim, want float64
			}{
				{"recall", recall / trials, metrics.RandomRecall(tc.n, tc.g, tc.k)},
				{"success", success / trials, metrics.RandomSuccess(tc.n, tc.g, tc.k)},
				{"mrr", rr / trials, metrics.RandomMRR(tc.n, tc.g, tc.k)},
			} {
				if math.Abs(c.sim-c.want) > tol {
					t.Errorf("%s: simulated %.4f, closed form %.4f", c.metric, c.sim, c.want)
				}
			}
		})
	}
}

func TestLoCoMoRecall(t *testing.T) {
	retrieved := []string{"D1:3", "D2:1", "D1:4", "D5:2"}
	for _, tc := range []struct {
		name     string
		evidence []string
		k        int
		want     float64
	}{
		{"both found", []string{"D1:3", "D1:4"}, 3, 2.0 / 2},
		{"one of two in the top 2", []string{"D1:3", "D1:4"}, 2, 1.0 / 2},
		{"a repeated ID counts twice", []string{"D2:1", "D2:1", "D9:9"}, 4, 2.0 / 3},
		{"a malformed ID matches nothing but counts", []string{"D1:3", "D:1:4"}, 4, 1.0 / 2},
		{"a list in one string matches nothing", []string{"D1:3; D1:4"}, 4, 0},
		{"no evidence scores 1", nil, 5, 1},
		{"k = 0 finds nothing", []string{"D1:3"}, 0, 0},
		{"k beyond the run", []string{"D5:2"}, 50, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := metrics.LoCoMoRecall(retrieved, tc.evidence, tc.k); got != tc.want {
				t.Errorf("LoCoMoRecall = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLoCoMoSession(t *testing.T) {
	for in, want := range map[string]string{"D12:3": "12", "D1:1": "1", "D:11:26": "", "": "", "S3": "3"} {
		if got := metrics.LoCoMoSession(in); got != want {
			t.Errorf("LoCoMoSession(%q) = %q, want %q", in, got, want)
		}
	}
}

func ExampleRandomSuccess() {
	// A user's history of 19 chunks, one of them relevant: a random top 5
	// finds it with probability 5/19.
	fmt.Printf("%.3f %.3f %.3f\n", metrics.RandomRecall(19, 1, 5), metrics.RandomSuccess(19, 1, 5), metrics.RandomMRR(19, 1, 5))
	// Output: 0.263 0.263 0.120
}
