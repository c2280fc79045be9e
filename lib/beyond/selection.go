package beyond

import (
	"fmt"
	"math/rand/v2"

	"github.com/linemem/linemem/lib/bootstrap"
)

// NestedFolds is k of the nested cross-validation: five folds of the 100
// questions leave 80 to select on, close to the full-data selection.
const NestedFolds = 5

// Candidate is one selectable method with its per-question selection metric
// (Recall@5), in evaluated-question order.
type Candidate struct {
	Name, Pairing string
	Scores        []float64
}

// FoldAssignment assigns n question positions to k folds: with perm the
// first Perm(n) of rand.New(rand.NewPCG(seed, seed)), position perm[i] goes
// to fold i mod k. Fold sizes differ by at most one; the same (n, k, seed)
// always gives the same folds. It panics unless 1 ≤ k ≤ n.
func FoldAssignment(n, k int, seed uint64) []int {
	if k < 1 || k > n {
		panic("beyond: FoldAssignment needs 1 ≤ k ≤ n")
	}
	perm := rand.New(rand.NewPCG(seed, seed)).Perm(n)
	fold := make([]int, n)
	for i, p := range perm {
		fold[p] = i % k
	}
	return fold
}

// SelectFirstMax returns the index of the first candidate, in slice order,
// whose mean over the positions idx is largest (lib/analysis's rule: pairing
// order then β ascending when the slice is the sweep). Means are compared as
// sums over idx in the same order, so equal candidates tie exactly. It
// panics on no candidates.
func SelectFirstMax(cs []Candidate, idx []int) int {
	best, bestSum := -1, 0.0
	for i, c := range cs {
		sum := 0.0
		for _, j := range idx {
			sum += c.Scores[j]
		}
		if best < 0 || sum > bestSum {
			best, bestSum = i, sum
		}
	}
	if best < 0 {
		panic("beyond: SelectFirstMax needs candidates")
	}
	return best
}

// CrossValidation is the nested cross-validation of the selected hybrid.
type CrossValidation struct {
	K    int
	Seed uint64
	Fold []int // fold of each question position
	// Hybrid and Single are the names selected on each fold's training
	// questions (all other folds).
	Hybrid, Single []string
	// OutOfFold holds each question's Recall@5 under the hybrid and the
	// single retriever selected without its fold.
	HybridOOF, SingleOOF []float64
}

// NestedCV estimates the Recall@5 of "select the best hybrid, then use it"
// on questions the selection never saw. For each fold f of FoldAssignment(n,
// k, seed), the 126 hybrid configurations and the single retrievers are each
// selected with SelectFirstMax on the questions outside f and scored on the
// questions of f. Nothing is fitted, so an inner cross-validation over the
// training folds would rank the candidates by the same training mean (up to
// fold weights); the selection uses that mean directly. The out-of-fold
// vectors cover every question once; their means and paired bootstrap
// intervals are the estimates.
func NestedCV(hybrids, singles []Candidate, k int, seed uint64) (*CrossValidation, error) {
	if len(hybrids) == 0 || len(singles) == 0 {
		return nil, fmt.Errorf("nested cross-validation: %d hybrid and %d single candidates", len(hybrids), len(singles))
	}
	n := len(hybrids[0].Scores)
	if k < 2 || k > n {
		return nil, fmt.Errorf("nested cross-validation: %d folds of %d questions, want 2 ≤ k ≤ n", k, n)
	}
	cv := &CrossValidation{K: k, Seed: seed, Fold: FoldAssignment(n, k, seed), HybridOOF: make([]float64, n), SingleOOF: make([]float64, n)}
	for f := range k {
		var train, test []int
		for i, fi := range cv.Fold {
			if fi == f {
				test = append(test, i)
			} else {
				train = append(train, i)
			}
		}
		h, s := hybrids[SelectFirstMax(hybrids, train)], singles[SelectFirstMax(singles, train)]
		cv.Hybrid, cv.Single = append(cv.Hybrid, h.Name), append(cv.Single, s.Name)
		for _, i := range test {
			cv.HybridOOF[i], cv.SingleOOF[i] = h.Scores[i], s.Scores[i]
		}
	}
	return cv, nil
}

// SelectionBootstrap repeats the whole selection inside every resample.
type SelectionBootstrap struct {
	B int
	// InResample is, per resample, the resample mean of the hybrid selected
	// on that resample minus that of the single retriever selected on it:
	// the in-sample gain with selection redone.
	InResample []float64
	// OutOfBag is, per resample with at least one question not drawn, the
	// mean over the undrawn questions of the same two selections' difference.
	OutOfBag []float64
	// Hybrid counts how often each hybrid configuration was selected.
	Hybrid map[string]int
}

// SelectionAware runs the selection-aware bootstrap on the resamples of ix
// (rows of question positions): in each resample the hybrid and the single
// retriever are selected with SelectFirstMax over the drawn positions
// (repeats counting), and scored both on the drawn positions and on the
// positions not drawn (out of bag, Efron 1983's leave-one-out bootstrap
// idea: ≈ 36.8% of the questions per resample).
func SelectionAware(hybrids, singles []Candidate, ix *bootstrap.Indices) *SelectionBootstrap {
	sb := &SelectionBootstrap{B: ix.B(), Hybrid: map[string]int{}}
	n := ix.N()
	for r := range ix.B() {
		row := ix.Row(r)
		h, s := hybrids[SelectFirstMax(hybrids, row)], singles[SelectFirstMax(singles, row)]
		sb.Hybrid[h.Name]++
		drawn := make([]bool, n)
		gain := 0.0
		for _, j := range row {
			drawn[j] = true
			gain += h.Scores[j] - s.Scores[j]
		}
		sb.InResample = append(sb.InResample, gain/float64(n))
		oob, m := 0.0, 0
		for j := range n {
			if !drawn[j] {
				oob += h.Scores[j] - s.Scores[j]
				m++
			}
		}
		if m > 0 {
			sb.OutOfBag = append(sb.OutOfBag, oob/float64(m))
		}
	}
	return sb
}

// Spread returns the mean of x and its percentile interval at level
// (bootstrap.Quantile7 of the sorted values).
func Spread(x []float64, level float64) (m, lo, hi float64) {
	sorted := append([]float64(nil), x...)
	sortFloats(sorted)
	return mean(x), bootstrap.Quantile7(sorted, (1-level)/2), bootstrap.Quantile7(sorted, (1+level)/2)
}
