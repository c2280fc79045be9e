package beyond

import (
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

// NativeCutoffs are the cutoffs of the native metrics (LongMemEval reports
// 5 and 10).
var NativeCutoffs = []int{5, 10}

// NativeScore is one evaluation's LongMemEval-native metrics at a unit
// coarser than its documents: for each cutoff k of NativeCutoffs (index i),
// the macro means over the questions of recall_any@k, recall_all@k and
// ndcg_any@k (lib/metrics).
type NativeScore struct {
	Name                          string
	RecallAny, RecallAll, NDCGAny []float64
}

// NativeScores scores the run of each evaluation of evs on qids at the unit
// unitsOf gives each document (a unit ranks at its best document,
// metrics.UnitRanking; k counts units) against goldUnits, each question's
// gold units. Each mean is the sum over qids divided by max(1, len(qids)):
// no question gives 0.
func NativeScores(evs []*experiment.Evaluation, qids []string, unitsOf, goldUnits map[string][]string) []NativeScore {
	n := float64(max(1, len(qids)))
	scores := make([]NativeScore, len(evs))
	for i, ev := range evs {
		sc := NativeScore{Name: ev.Name}
		for _, k := range NativeCutoffs {
			var anyHit, allHit, nd float64
			for _, q := range qids {
				ranked := metrics.UnitRanking(ev.Run[q], unitsOf)
				judged := metrics.UnitJudgments(goldUnits[q])
				anyHit += metrics.RecallAny(ranked, judged, k)
				allHit += metrics.RecallAll(ranked, judged, k)
				nd += metrics.NDCGAny(ranked, judged, k)
			}
			sc.RecallAny = append(sc.RecallAny, anyHit/n)
			sc.RecallAll = append(sc.RecallAll, allHit/n)
			sc.NDCGAny = append(sc.NDCGAny, nd/n)
		}
		scores[i] = sc
	}
	return scores
}
