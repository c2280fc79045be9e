package analysis

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// Rule labels of a Top-k failure (spec §10), assigned in this order.
const (
	LabelAggregate           = "aggregate_failure"
	LabelMultiplePrimaryGold = "multiple_primary_gold_nonaggregate"
	LabelOther               = "other_rule_based_failure"
)

// Labels lists the rule labels in the order the rules apply.
var Labels = []string{LabelAggregate, LabelMultiplePrimaryGold, LabelOther}

// MultiplePrimaryGold is the |G2| from which a non-aggregate failure is
// labelled LabelMultiplePrimaryGold.
const MultiplePrimaryGold = 3

// Failure is one evaluated question with Success@k = 0.
type Failure struct {
	QID         string
	Type        string
	Label       string
	PrimaryGold int // |G2|
}

// Failures returns the Top-k failures of run, in question order: the
// evaluated questions with Success@k = 0. Labels follow the spec's rules in
// order: an aggregate question → LabelAggregate; otherwise |G2| ≥
// MultiplePrimaryGold → LabelMultiplePrimaryGold; otherwise LabelOther. The
// labels are mechanical, not causes. k < 1 is an error (as is anything
// metrics.Evaluate rejects).
func Failures(qs []questions.Question, qrels ranking.Qrels, run ranking.Run, k int) ([]Failure, error) {
	metric := fmt.Sprintf("success@%d", k)
	res, err := metrics.Evaluate(qs, qrels, run, []string{metric})
	if err != nil {
		return nil, err
	}
	var out []Failure
	for i, s := range res.Scores(metric) {
		if s != 0 {
			continue
		}
		f := Failure{QID: res.QIDs[i], Type: res.Types[i], PrimaryGold: metrics.PrimaryGold(qrels[res.QIDs[i]])}
		switch {
		case f.Type == questions.Aggregate:
			f.Label = LabelAggregate
		case f.PrimaryGold >= MultiplePrimaryGold:
			f.Label = LabelMultiplePrimaryGold
		default:
			f.Label = LabelOther
		}
		out = append(out, f)
	}
	return out, nil
}

// TypeFailures is one row of the failures-by-type table (paper Table 7).
type TypeFailures struct {
	Type      string // a question type, or Overall
	Questions int    // evaluated questions of the type
	Failures  int
	Rate      float64 // Failures / Questions; 0 when Questions = 0
}

// FailuresByType counts fails per question type against the evaluated
// questions of qs (non-empty G2 in qrels): one row per type present, in
// metrics.Result.TypeOrder, then an Overall row. Empty qs gives only an
// Overall row of zeros.
func FailuresByType(qs []questions.Question, qrels ranking.Qrels, fails []Failure) ([]TypeFailures, error) {
	res, err := metrics.Evaluate(qs, qrels, nil, nil)
	if err != nil {
		return nil, err
	}
	rows := make([]TypeFailures, 0, len(res.TypeOrder)+1)
	for _, t := range res.TypeOrder {
		n := 0
		for _, f := range fails {
			if f.Type == t {
				n++
			}
		}
		rows = append(rows, newTypeFailures(t, res.ByType[t].Questions, n))
	}
	return append(rows, newTypeFailures(Overall, len(res.QIDs), len(fails))), nil
}

func newTypeFailures(typ string, questions, failures int) TypeFailures {
	r := TypeFailures{Type: typ, Questions: questions, Failures: failures}
	if questions > 0 {
		r.Rate = float64(failures) / float64(questions)
	}
	return r
}

// LabelCount is one row of the rule-label table (paper Table 8).
type LabelCount struct {
	Label string
	Count int
	Share float64 // Count / len(fails); 0 when there are no failures
}

// FailuresByLabel counts fails per rule label. Every label of Labels gets a
// row, zero counts included, ordered by count descending and ties in rule
// order (the paper's Table 8 order).
func FailuresByLabel(fails []Failure) []LabelCount {
	rows := make([]LabelCount, len(Labels))
	for i, l := range Labels {
		rows[i].Label = l
		for _, f := range fails {
			if f.Label == l {
				rows[i].Count++
			}
		}
		if len(fails) > 0 {
			rows[i].Share = float64(rows[i].Count) / float64(len(fails))
		}
	}
	slices.SortStableFunc(rows, func(a, b LabelCount) int { return cmp.Compare(b.Count, a.Count) })
	return rows
}

// Recovery counts how many failures succeed at a larger cutoff.
type Recovery struct {
	K         int
	Recovered int // failures with Success@K = 1
}

// Recover evaluates Success@k of each failed question for every k of ks
// (paper §7.3: "two were recovered at Top 10, four in total at Top 20"). The
// counts are cumulative when ks ascends, since Success@k cannot fall as k
// grows. Failures whose QID is not in qs are ignored; a k < 1 or a repeated
// k is an error.
func Recover(qs []questions.Question, qrels ranking.Qrels, run ranking.Run, fails []Failure, ks []int) ([]Recovery, error) {
	failed := map[string]bool{}
	for _, f := range fails {
		failed[f.QID] = true
	}
	var sub []questions.Question
	for _, q := range qs {
		if failed[q.QID] {
			sub = append(sub, q)
		}
	}
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = fmt.Sprintf("success@%d", k)
	}
	res, err := metrics.Evaluate(sub, qrels, run, names)
	if err != nil {
		return nil, err
	}
	out := make([]Recovery, len(ks))
	for i, k := range ks {
		out[i].K = k
		for _, s := range res.Scores(names[i]) {
			if s == 1 {
				out[i].Recovered++
			}
		}
	}
	return out, nil
}
