package workbench

import (
	"math"
	"sort"
)

// Levels is the number of relevance grades (0, 1, 2).
const Levels = 3

// Table is a confusion table of two annotators: Table[a][b] counts the rows
// annotator A labelled a and annotator B labelled b.
type Table [Levels][Levels]int

// Rows is the number of rows in the table.
func (t Table) Rows() int {
	n := 0
	for _, row := range t {
		for _, c := range row {
			n += c
		}
	}
	return n
}

// Kappa is Cohen's κ of the table: (p_o − p_e)/(1 − p_e); NaN when the table
// is empty or p_e = 1.
func (t Table) Kappa() float64 {
	return t.weighted(func(i, j int) float64 {
		if i == j {
			return 1
		}
		return 0
	})
}

// WeightedKappa is κ with linear weights w_ij = 1 − |i − j|/(Levels − 1);
// NaN when the table is empty or the expected weighted agreement is 1.
func (t Table) WeightedKappa() float64 {
	return t.weighted(func(i, j int) float64 { return 1 - math.Abs(float64(i-j))/(Levels-1) })
}

// weighted computes (Σ w·o − Σ w·e)/(1 − Σ w·e) with o_ij = n_ij/n and
// e_ij = (n_i·/n)(n_·j/n).
func (t Table) weighted(w func(i, j int) float64) float64 {
	n := float64(t.Rows())
	if n == 0 {
		return math.NaN()
	}
	var rowSum, colSum [Levels]float64
	for i := range Levels {
		for j := range Levels {
			rowSum[i] += float64(t[i][j])
			colSum[j] += float64(t[i][j])
		}
	}
	po, pe := 0.0, 0.0
	for i := range Levels {
		for j := range Levels {
			po += w(i, j) * float64(t[i][j]) / n
			pe += w(i, j) * (rowSum[i] / n) * (colSum[j] / n)
		}
	}
	if pe == 1 {
		return math.NaN()
	}
	return (po - pe) / (1 - pe)
}

// Disagreement is one row two annotators labelled differently.
type Disagreement struct {
	QID, ChunkID string
	A, B         int
}

// Agreement compares two annotators over the rows both labelled.
type Agreement struct {
	A, B          string
	Table         Table
	Kappa         float64 // NaN when undefined
	WeightedKappa float64 // linear weights; NaN when undefined
	OnlyA, OnlyB  int     // rows labelled by one of the two only
	Disagreements []Disagreement
}

// Compare builds the agreement of annotators a and b from their labels
// (qid → chunk_id → rel). Disagreements are sorted by qid, then chunk ID.
func Compare(a, b string, la, lb map[string]map[string]int) Agreement {
	ag := Agreement{A: a, B: b}
	for qid, rows := range la {
		for cid, ra := range rows {
			rb, ok := lb[qid][cid]
			if !ok {
				ag.OnlyA++
				continue
			}
			ag.Table[ra][rb]++
			if ra != rb {
				ag.Disagreements = append(ag.Disagreements, Disagreement{qid, cid, ra, rb})
			}
		}
	}
	for qid, rows := range lb {
		for cid := range rows {
			if _, ok := la[qid][cid]; !ok {
				ag.OnlyB++
			}
		}
	}
	sort.Slice(ag.Disagreements, func(i, j int) bool {
		x, y := ag.Disagreements[i], ag.Disagreements[j]
		if x.QID != y.QID {
			return x.QID < y.QID
		}
		return x.ChunkID < y.ChunkID
	})
	ag.Kappa, ag.WeightedKappa = ag.Table.Kappa(), ag.Table.WeightedKappa()
	return ag
}

// Agreement compares the stored labels of annotators a and b.
func (b *Bench) Agreement(a, bName string) (Agreement, error) {
	la, err := b.Labels(a)
	if err != nil {
		return Agreement{}, err
	}
	lb, err := b.Labels(bName)
	if err != nil {
		return Agreement{}, err
	}
	return Compare(a, bName, la, lb), nil
}
