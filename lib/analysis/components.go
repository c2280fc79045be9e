package analysis

import (
	"fmt"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// Overlap counts evaluated questions by which of two component runs succeed
// at the cutoff (paper Table 9). The four counts sum to the number of
// evaluated questions.
type Overlap struct {
	BM25Only   int
	VectorOnly int
	Both       int
	Neither    int
}

// SuccessOverlap compares Success@k (the paper uses k = 5) of the BM25 and
// the vector component of a hybrid question by question.
func SuccessOverlap(qs []questions.Question, qrels ranking.Qrels, bm25, vector ranking.Run, k int) (Overlap, error) {
	metric := fmt.Sprintf("success@%d", k)
	rb, err := metrics.Evaluate(qs, qrels, bm25, []string{metric})
	if err != nil {
		return Overlap{}, err
	}
	rv, err := metrics.Evaluate(qs, qrels, vector, []string{metric})
	if err != nil {
		return Overlap{}, err
	}
	var o Overlap
	sv := rv.Scores(metric)
	for i, b := range rb.Scores(metric) {
		switch {
		case b == 1 && sv[i] == 1:
			o.Both++
		case b == 1:
			o.BM25Only++
		case sv[i] == 1:
			o.VectorOnly++
		default:
			o.Neither++
		}
	}
	return o, nil
}

// CandidateDepth is the hybrid's candidate depth D (spec §9): each component
// contributes its top 200.
const CandidateDepth = 200

// CeilingRow is the candidate ceiling for one question type.
type CeilingRow struct {
	Type      string // a question type, or Overall
	Questions int
	BM25      float64 // Recall@depth of the BM25 component
	Vector    float64 // Recall@depth of the vector component
	Union     float64 // recall of the union of both top-depth lists
}

// CandidateCeiling measures how much primary gold a hybrid over bm25 and
// vector could ever reach: Recall@depth of each component and the recall of
// the oracle union of their top-depth lists,
//
//	Union(q) = |(top_depth(bm25) ∪ top_depth(vector)) ∩ G2| / |G2|,
//
// macro-averaged per type (metrics.Result.TypeOrder) and Overall (last row).
// A hybrid that fuses the same candidates, as spec §9's does, cannot exceed
// Union at any cutoff. depth < 1 is an error.
func CandidateCeiling(qs []questions.Question, qrels ranking.Qrels, bm25, vector ranking.Run, depth int) ([]CeilingRow, error) {
	if depth < 1 {
		return nil, fmt.Errorf("analysis: candidate depth %d, want ≥ 1", depth)
	}
	union := ranking.Run{}
	for _, q := range qs {
		seen := map[string]bool{}
		for _, list := range [][]ranking.Hit{bm25[q.QID], vector[q.QID]} {
			for _, h := range list[:min(depth, len(list))] {
				if !seen[h.ChunkID] {
					seen[h.ChunkID] = true
					union[q.QID] = append(union[q.QID], h)
				}
			}
		}
	}
	metric := fmt.Sprintf("recall@%d", depth)
	unionMetric := fmt.Sprintf("recall@%d", 2*depth)
	var res [3]*metrics.Result
	for i, c := range []struct {
		run    ranking.Run
		metric string
	}{{bm25, metric}, {vector, metric}, {union, unionMetric}} {
		r, err := metrics.Evaluate(qs, qrels, c.run, []string{c.metric})
		if err != nil {
			return nil, err
		}
		res[i] = r
	}
	var rows []CeilingRow
	for _, t := range res[0].TypeOrder {
		rows = append(rows, CeilingRow{t, res[0].ByType[t].Questions,
			res[0].ByType[t].Mean[metric], res[1].ByType[t].Mean[metric], res[2].ByType[t].Mean[unionMetric]})
	}
	return append(rows, CeilingRow{Overall, len(res[0].QIDs),
		res[0].Mean[metric], res[1].Mean[metric], res[2].Mean[unionMetric]}), nil
}
