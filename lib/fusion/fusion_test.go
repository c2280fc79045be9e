package fusion_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

// tol: the expected values below are the same expressions as the code's,
// possibly reassociated.
const tol = 1e-12

func hits(pairs ...any) []ranking.Hit {
	var out []ranking.Hit
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, ranking.Hit{ChunkID: pairs[i].(string), Score: pairs[i+1].(float64)})
	}
	return out
}

func TestLinearMinMax(t *testing.T) {
	bm := hits("a", 9.0, "b", 5.0, "c", 1.0)  // a' = 1, b' = 4/8, c' = 0
	vec := hits("b", 0.8, "d", 0.6, "a", 0.4) // b' = 1, d' = 0.2/0.4, a' = 0
	cases := []struct {
		name    string
		beta    float64
		bm, vec []ranking.Hit
		want    []ranking.Hit
	}{
		{"empty lists", 0.5, nil, nil, nil},
		{"one empty list", 0.5, bm, nil, hits("a", 0.5*1, "b", 0.5*0.5, "c", 0.0)},
		{"general beta", 0.3, bm, vec, hits(
			"b", 0.7*1+0.3*0.5,
			"d", 0.7*0.5+0.3*0, // only in vec
			"a", 0.7*0+0.3*1,
			"c", 0.0,
		)},
		{"beta 0 is vector only, absent and lowest both 0", 0, bm, vec, hits("b", 1.0, "d", 0.5, "c", 0.0, "a", 0.0)},
		{"beta 1 is bm25 only", 1, bm, vec, hits("a", 1.0, "b", 0.5, "d", 0.0, "c", 0.0)},
		{"one-element lists normalise to 0", 0.5, hits("x", 3.0), hits("y", 0.2), hits("y", 0.0, "x", 0.0)},
		{"all-equal scores normalise to 0", 0.5, hits("p", 2.0, "q", 2.0), hits("q", 0.9, "r", 0.1), hits("q", 0.5*1, "r", 0.0, "p", 0.0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertHits(t, fusion.LinearMinMax{Beta: c.beta}.Fuse(c.bm, c.vec), c.want)
		})
	}
}

func TestDepth(t *testing.T) {
	var bm, vec []ranking.Hit
	for i := range fusion.Depth + 50 {
		bm = append(bm, ranking.Hit{ChunkID: fmt.Sprintf("b%03d", i), Score: float64(1000 - i)})
		vec = append(vec, ranking.Hit{ChunkID: fmt.Sprintf("v%03d", i), Score: float64(1000 - i)})
	}
	for _, f := range []fusion.Fuser{fusion.LinearMinMax{Beta: 0.5}, fusion.RRF{K: 60}, fusion.ZScore{Beta: 0.5}} {
		t.Run(f.Name(), func(t *testing.T) {
			got := f.Fuse(bm, vec)
			if len(got) != 2*fusion.Depth {
				t.Fatalf("%d fused hits, want 2·Depth = %d", len(got), 2*fusion.Depth)
			}
			if slices.ContainsFunc(got, func(h ranking.Hit) bool { return h.ChunkID == "b200" || h.ChunkID == "v200" }) {
				t.Error("a hit below Depth was fused")
			}
		})
	}
	t.Run("min-max uses the Depth-th score as minimum", func(t *testing.T) {
		got := fusion.LinearMinMax{Beta: 1}.Fuse(bm, nil)
		// scores 1000 … 801 over the top 200: b001 → (999 − 801)/(1000 − 801)
		if want := 198.0 / 199; math.Abs(got[1].Score-want) > tol {
			t.Errorf("b001 = %g, want %g", got[1].Score, want)
		}
	})
}

func TestRRF(t *testing.T) {
	cases := []struct {
		name    string
		bm, vec []ranking.Hit
		want    []ranking.Hit
	}{
		{"empty lists", nil, nil, nil},
		{"scores ignored, ranks used", hits("a", 9.0, "b", 5.0), hits("b", 0.1, "c", 0.05), hits(
			"b", 1.0/62+1.0/61,
			"a", 1.0/61,
			"c", 1.0/62,
		)},
		{"equal fused scores by chunk id desc", hits("a", 1.0), hits("z", 1.0), hits("z", 1.0/61, "a", 1.0/61)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertHits(t, fusion.RRF{K: 60}.Fuse(c.bm, c.vec), c.want)
		})
	}
}

func TestZScore(t *testing.T) {
	// bm25 3, 1: μ = 2, σ = 1 → z = 1, −1. vec 0.5, 0.5: σ = 0 → 0.
	bm := hits("a", 3.0, "b", 1.0)
	vec := hits("c", 0.5, "a", 0.5)
	cases := []struct {
		name string
		beta float64
		want []ranking.Hit
	}{
		{"beta 0.5", 0.5, hits("a", 0.5*1, "c", 0.0, "b", 0.5*-1)},
		{"beta 0", 0, hits("c", 0.0, "b", 0.0, "a", 0.0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertHits(t, fusion.ZScore{Beta: c.beta}.Fuse(bm, vec), c.want)
		})
	}
	t.Run("empty lists", func(t *testing.T) {
		if got := (fusion.ZScore{Beta: 0.5}).Fuse(nil, nil); len(got) != 0 {
			t.Errorf("Fuse(nil, nil) = %v", got)
		}
	})
}

func TestRepeatedIDKeepsFirst(t *testing.T) {
	got := fusion.LinearMinMax{Beta: 1}.Fuse(hits("a", 4.0, "b", 2.0, "a", 0.0), nil)
	assertHits(t, got, hits("a", 1.0, "b", 0.0))
}

func TestBetaGrid(t *testing.T) {
	grid := fusion.BetaGrid()
	if len(grid) != 21 {
		t.Fatalf("len = %d, want 21", len(grid))
	}
	for i, b := range grid {
		if b != float64(i)/20 {
			t.Errorf("grid[%d] = %v, want %d/20", i, b, i)
		}
	}
	if grid[7] != 0.35 || fusion.FormatBeta(grid[7]) != "0.35" || fusion.FormatBeta(grid[9]) != "0.45" {
		t.Errorf("grid[7] = %v (%s), grid[9] prints %s", grid[7], fusion.FormatBeta(grid[7]), fusion.FormatBeta(grid[9]))
	}
}

func TestNames(t *testing.T) {
	for f, want := range map[fusion.Fuser]string{
		fusion.LinearMinMax{Beta: 0.45}: "hybrid@0.45",
		fusion.ZScore{Beta: 1}:          "zscore@1.00",
		fusion.RRF{K: 60}:               "rrf",
		fusion.RRF{K: 10}:               "rrf(k=10)",
	} {
		if got := f.Name(); got != want {
			t.Errorf("Name() = %q, want %q", got, want)
		}
	}
}

func assertHits(t *testing.T, got, want []ranking.Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i].ChunkID != want[i].ChunkID || math.Abs(got[i].Score-want[i].Score) > tol {
			t.Errorf("rank %d: got %v, want %v", i+1, got[i], want[i])
		}
	}
}

func ExampleLinearMinMax() {
	bm25 := []ranking.Hit{{ChunkID: "c1", Score: 8.2}, {ChunkID: "c2", Score: 4.1}}
	vec := []ranking.Hit{{ChunkID: "c2", Score: 0.61}, {ChunkID: "c3", Score: 0.42}}
	for _, h := range (fusion.LinearMinMax{Beta: 0.45}).Fuse(bm25, vec) {
		fmt.Printf("%s %.2f\n", h.ChunkID, h.Score)
	}
	// Output:
	// c2 0.55
	// c1 0.45
	// c3 0.00
}

func TestExplain(t *testing.T) {
	bm := hits("a", 9.0, "b", 5.0, "c", 1.0)
	vec := hits("b", 0.8, "d", 0.6, "a", 0.4)
	for _, f := range []fusion.Explainer{fusion.LinearMinMax{Beta: 0.3}, fusion.RRF{K: 60}, fusion.ZScore{Beta: 0.7}} {
		fused := f.Fuse(bm, vec)
		for _, want := range append(fused, ranking.Hit{ChunkID: "absent"}) {
			t.Run(f.Name()+"/"+want.ChunkID, func(t *testing.T) {
				got, sparse, dense := f.Explain(bm, vec, want.ChunkID)
				if math.Abs(got-want.Score) > tol {
					t.Errorf("fused = %g, Fuse gives %g", got, want.Score)
				}
				if sum := sparse.Weight*sparse.Normalised + dense.Weight*dense.Normalised; math.Abs(sum-got) > tol {
					t.Errorf("weighted parts sum to %g, fused is %g", sum, got)
				}
			})
		}
	}
	t.Run("parts of b under min-max", func(t *testing.T) {
		_, sparse, dense := fusion.LinearMinMax{Beta: 0.3}.Explain(bm, vec, "b")
		if sparse.Rank != 2 || sparse.Score != 5 || math.Abs(sparse.Normalised-0.5) > tol || sparse.Weight != 0.3 {
			t.Errorf("bm25 part = %+v, want rank 2, score 5, normalised (5 − 1)/(9 − 1), weight 0.3", sparse)
		}
		if dense.Rank != 1 || dense.Normalised != 1 || dense.Weight != 0.7 {
			t.Errorf("vector part = %+v, want rank 1, normalised 1, weight 0.7", dense)
		}
	})
}

func TestMinMax(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		scores []float64
		want   []float64
	}{
		{"empty", nil, []float64{}},
		{"single hit", []float64{3}, []float64{0}},
		{"all equal", []float64{2, 2, 2}, []float64{0, 0, 0}},
		{"spread", []float64{4, 1, 2.5}, []float64{(4 - 1) / 3.0, 0, (2.5 - 1) / 3.0}},
		{"negative scores", []float64{-1, -3}, []float64{(-1 + 3) / 2.0, 0}},
		{"a NaN makes every value 0", []float64{4, nan, 1}, []float64{0, 0, 0}},
		{"+Inf: finite to 0, infinite to NaN", []float64{math.Inf(1), 1}, []float64{nan, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make([]ranking.Hit, len(tt.scores))
			for i, s := range tt.scores {
				in[i] = ranking.Hit{ChunkID: fmt.Sprint(i), Score: s}
			}
			got := fusion.MinMax(in)
			if got == nil || !slices.EqualFunc(got, tt.want, func(a, b float64) bool {
				return a == b || math.IsNaN(a) && math.IsNaN(b)
			}) {
				t.Errorf("MinMax(%v) = %v, want %v", tt.scores, got, tt.want)
			}
		})
	}
}

func ExampleMinMax() {
	hits := []ranking.Hit{{ChunkID: "a", Score: 9}, {ChunkID: "b", Score: 5}, {ChunkID: "c", Score: 1}}
	fmt.Println(fusion.MinMax(hits))
	// Output: [1 0.5 0]
}

// TestExplainMethod checks the normalisation each linear rule names in its
// explanation: min–max with the list's range, z-score with the list's
// length.
func TestExplainMethod(t *testing.T) {
	bm := hits("a", 9.0, "b", 5.0, "c", 1.0)
	vec := hits("b", 0.8, "d", 0.6)
	tests := []struct {
		rule          fusion.Explainer
		sparse, dense string
	}{
		{fusion.LinearMinMax{Beta: 0.3}, "min–max: (s − 1)/(9 − 1) over the top 3", "min–max: (s − 0.6)/(0.8 − 0.6) over the top 2"},
		{fusion.ZScore{Beta: 0.3}, "z-score over the top 3", "z-score over the top 2"},
	}
	for _, tt := range tests {
		t.Run(tt.rule.Name(), func(t *testing.T) {
			_, sparse, dense := tt.rule.Explain(bm, vec, "b")
			if sparse.Method != tt.sparse || dense.Method != tt.dense {
				t.Errorf("methods %q, %q; want %q, %q", sparse.Method, dense.Method, tt.sparse, tt.dense)
			}
		})
	}
}
