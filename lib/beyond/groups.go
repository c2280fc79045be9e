package beyond

import (
	"slices"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/trec"
)

// GroupScores returns gold.GroupRecall@k of run over the evidence groups
// (gold.Groups) of each question of qids, in order.
func GroupScores(groups map[string][]gold.Group, run trec.Run, qids []string, k int) []float64 {
	out := make([]float64, len(qids))
	for i, q := range qids {
		out[i] = gold.GroupRecall(groups[q], run[q], k)
	}
	return out
}

func sortFloats(x []float64) { slices.Sort(x) }
