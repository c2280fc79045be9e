package workbench_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/linemem/linemem/lib/workbench"
)

const tol = 1e-12 // the same fractions, only the order of the sums differs

func TestKappaOnAHandComputedTable(t *testing.T) {
	// rows: annotator A's label, columns: B's; n = 14, row and column sums 5, 4, 5.
	tab := workbench.Table{{4, 1, 0}, {1, 2, 1}, {0, 1, 4}}
	po := 10.0 / 14                         // diagonal 4 + 2 + 4
	pe := (5*5 + 4*4 + 5*5) / 196.0         // Σ row_i·col_i / n²
	wantK := (po - pe) / (1 - pe)           // = 74/130
	pow := (10 + 0.5*4) / 14.0              // four cells at distance 1, weight 1 − 1/2
	pew := (66 + 0.5*(20+20+20+20)) / 196.0 // (0,1), (1,0), (1,2), (2,1): 5·4 each
	wantW := (pow - pew) / (1 - pew)        // = 62/90
	if got := tab.Kappa(); math.Abs(got-wantK) > tol || math.Abs(got-74.0/130) > tol {
		t.Errorf("κ = %v, want %v", got, wantK)
	}
	if got := tab.WeightedKappa(); math.Abs(got-wantW) > tol || math.Abs(got-62.0/90) > tol {
		t.Errorf("κ_w = %v, want %v", got, wantW)
	}
}

func TestKappaEdgeCases(t *testing.T) {
	cases := []struct {
		name      string
		tab       workbench.Table
		kappa, kw float64 // NaN = undefined
	}{
		{"empty", workbench.Table{}, math.NaN(), math.NaN()},
		{"one label throughout", workbench.Table{{0, 0, 0}, {0, 0, 0}, {0, 0, 7}}, math.NaN(), math.NaN()},
		{"perfect agreement", workbench.Table{{3, 0, 0}, {0, 2, 0}, {0, 0, 5}}, 1, 1},
		// p_o = 0, p_e = (1·1 + 1·1)/4 = 1/2: κ = −1; weighted: o = 0 (distance 2),
		// e = (1 + 1 + 0 + 0)/4 = 1/2 over cells (0,0),(2,2) → κ_w = −1.
		{"total disagreement 0 vs 2", workbench.Table{{0, 0, 1}, {0, 0, 0}, {1, 0, 0}}, -1, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"κ", c.tab.Kappa(), c.kappa}, {"κ_w", c.tab.WeightedKappa(), c.kw}} {
				if math.IsNaN(f.want) != math.IsNaN(f.got) || !math.IsNaN(f.want) && math.Abs(f.got-f.want) > tol {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

func TestCompareCountsOnlyRowsBothLabelled(t *testing.T) {
	a := map[string]map[string]int{"q1": {"c1": 2, "c2": 0, "c3": 1}, "q2": {"c1": 2}}
	b := map[string]map[string]int{"q1": {"c1": 2, "c2": 1}, "q2": {"c9": 0}}
	ag := workbench.Compare("A", "B", a, b)
	if ag.Table.Rows() != 2 || ag.OnlyA != 2 || ag.OnlyB != 1 {
		t.Fatalf("rows %d, only A %d, only B %d; want 2, 2, 1", ag.Table.Rows(), ag.OnlyA, ag.OnlyB)
	}
	if len(ag.Disagreements) != 1 || ag.Disagreements[0] != (workbench.Disagreement{QID: "q1", ChunkID: "c2", A: 0, B: 1}) {
		t.Errorf("disagreements %+v, want q1/c2 0 vs 1", ag.Disagreements)
	}
}

func ExampleTable_Kappa() {
	// Two annotators agree on 8 of 10 rows.
	tab := workbench.Table{{4, 1, 0}, {0, 1, 0}, {0, 1, 3}}
	fmt.Printf("κ = %.3f, linear weighted κ = %.3f over %d rows\n", tab.Kappa(), tab.WeightedKappa(), tab.Rows())
	// Output: κ = 0.692, linear weighted κ = 0.792 over 10 rows
}
