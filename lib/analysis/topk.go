package analysis

import (
	"fmt"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// SensitivityCutoffs are the cutoffs of the paper's Top-K sensitivity
// analysis (§7.3, Figure 6).
var SensitivityCutoffs = []int{5, 10, 20}

// TopKRow is Recall@K and Success@K macro-averaged over one question type.
type TopKRow struct {
	Type      string // a question type, or Overall
	K         int
	Questions int
	Recall    float64
	Success   float64
}

// TopKSensitivity evaluates Recall@k and Success@k of run for every k of ks
// (distinct, ≥ 1): rows for each type in metrics.Result.TypeOrder, then
// Overall, each with one row per k in the order of ks. With no evaluated
// question it returns only Overall rows of zeros.
func TopKSensitivity(qs []questions.Question, qrels ranking.Qrels, run ranking.Run, ks []int) ([]TopKRow, error) {
	var names []string
	for _, k := range ks {
		names = append(names, fmt.Sprintf("recall@%d", k), fmt.Sprintf("success@%d", k))
	}
	res, err := metrics.Evaluate(qs, qrels, run, names)
	if err != nil {
		return nil, err
	}
	var rows []TopKRow
	add := func(typ string, n int, mean map[string]float64) {
		for i, k := range ks {
			rows = append(rows, TopKRow{Type: typ, K: k, Questions: n, Recall: mean[names[2*i]], Success: mean[names[2*i+1]]})
		}
	}
	for _, t := range res.TypeOrder {
		add(t, res.ByType[t].Questions, res.ByType[t].Mean)
	}
	add(Overall, len(res.QIDs), res.Mean)
	return rows, nil
}
