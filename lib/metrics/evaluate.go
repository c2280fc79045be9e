package metrics

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// Result holds per-question scores and their macro means for one run.
//
// Per-question scores are kept, parallel to QIDs, so that bootstrap
// intervals, paired differences and failure tables start from them instead
// of recomputing.
type Result struct {
	// Metrics are the metric names in the order requested.
	Metrics []string
	// QIDs are the evaluated questions (non-empty G2), in question-file order.
	QIDs []string
	// Types[i] is the question type of QIDs[i].
	Types []string
	// PerQuestion maps a metric name to its scores, parallel to QIDs.
	PerQuestion map[string][]float64
	// Mean maps a metric name to its macro mean over QIDs (see Mean).
	Mean map[string]float64
	// ByType holds the macro means of each question type that has at least
	// one evaluated question.
	ByType map[string]TypeMeans
	// TypeOrder lists the keys of ByType: the paper's types in
	// questions.Types order, then any other type in order of first appearance.
	TypeOrder []string
	// Excluded are the questions with empty G2 (no rel-2 chunk, or no qrels
	// at all), in question-file order. They are in no average.
	Excluded []string
	// NotInQuestions are qids that have qrels but are not in the question
	// list, sorted. They are ignored.
	NotInQuestions []string
}

// TypeMeans are the macro means over the evaluated questions of one type.
type TypeMeans struct {
	Questions int
	Mean      map[string]float64
}

// Scores returns the per-question scores of metric, parallel to r.QIDs, or
// nil when metric was not evaluated.
func (r *Result) Scores(metric string) []float64 {
	return r.PerQuestion[metric]
}

// TypeIndices returns the positions in r.QIDs of the questions of type typ.
func (r *Result) TypeIndices(typ string) []int {
	var idx []int
	for i, t := range r.Types {
		if t == typ {
			idx = append(idx, i)
		}
	}
	return idx
}

// Evaluate scores run against qrels for every question of qs and every
// metric name (see Parse), in ranx style: one score per evaluated question
// and metric, then macro means overall and per question type.
//
// Questions are taken from qs, in its order:
//   - a question whose G2 is empty (including one absent from qrels) is
//     excluded from every average and listed in Result.Excluded;
//   - a question absent from run, or with an empty list, scores 0;
//   - qids in qrels but not in qs are ignored and listed in
//     Result.NotInQuestions; qids in run but not in qs are ignored.
//
// Gold chunks missing from the corpus still count in the denominators (see
// MissingGold). An unknown or repeated metric name, or a repeated qid in qs,
// is an error.
func Evaluate(qs []questions.Question, qrels ranking.Qrels, run ranking.Run, metricNames []string) (*Result, error) {
	ms := make([]Metric, 0, len(metricNames))
	for _, name := range metricNames {
		m, err := Parse(name)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(ms, func(prev Metric) bool { return prev.Name == m.Name }) {
			return nil, fmt.Errorf("metrics: metric %q requested twice", name)
		}
		ms = append(ms, m)
	}
	r := &Result{
		Metrics:     slices.Clone(metricNames),
		PerQuestion: map[string][]float64{},
		Mean:        map[string]float64{},
		ByType:      map[string]TypeMeans{},
	}
	asked := map[string]bool{}
	for _, q := range qs {
		if asked[q.QID] {
			return nil, fmt.Errorf("metrics: question %q listed twice", q.QID)
		}
		asked[q.QID] = true
		judged := qrels[q.QID]
		if PrimaryGold(judged) == 0 {
			r.Excluded = append(r.Excluded, q.QID)
			continue
		}
		r.QIDs = append(r.QIDs, q.QID)
		r.Types = append(r.Types, q.Type)
		for _, m := range ms {
			r.PerQuestion[m.Name] = append(r.PerQuestion[m.Name], m.Score(run[q.QID], judged))
		}
	}
	for qid := range qrels {
		if !asked[qid] {
			r.NotInQuestions = append(r.NotInQuestions, qid)
		}
	}
	sort.Strings(r.NotInQuestions)

	for _, m := range ms {
		r.Mean[m.Name] = Mean(r.PerQuestion[m.Name])
	}
	r.TypeOrder = typeOrder(r.Types)
	for _, t := range r.TypeOrder {
		idx := r.TypeIndices(t)
		tm := TypeMeans{Questions: len(idx), Mean: map[string]float64{}}
		for _, m := range ms {
			all := r.PerQuestion[m.Name]
			sub := make([]float64, len(idx))
			for j, i := range idx {
				sub[j] = all[i]
			}
			tm.Mean[m.Name] = Mean(sub)
		}
		r.ByType[t] = tm
	}
	return r, nil
}

// typeOrder returns the distinct types: questions.Types first (those
// present), then the others in order of first appearance.
func typeOrder(types []string) []string {
	var order []string
	for _, t := range questions.Types {
		if slices.Contains(types, t) {
			order = append(order, t)
		}
	}
	for _, t := range types {
		if !slices.Contains(order, t) {
			order = append(order, t)
		}
	}
	return order
}

// GoldRef is one judged chunk of one question.
type GoldRef struct {
	QID     string
	ChunkID string
	Rel     int
}

// MissingGold returns the gold chunks (rel ≥ 1) of qrels whose IDs are not in
// corpus, sorted by qid then chunk ID. They are a warning, not an error:
// Evaluate still counts them in |G2| and in IDCG, so they can only lower
// scores.
func MissingGold(qrels ranking.Qrels, corpus map[string]bool) []GoldRef {
	var out []GoldRef
	for qid, judged := range qrels {
		for id, rel := range judged {
			if rel >= 1 && !corpus[id] {
				out = append(out, GoldRef{qid, id, rel})
			}
		}
	}
	slices.SortFunc(out, func(a, b GoldRef) int {
		return cmp.Or(strings.Compare(a.QID, b.QID), strings.Compare(a.ChunkID, b.ChunkID))
	})
	return out
}
