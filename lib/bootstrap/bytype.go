package bootstrap

import (
	"fmt"

	"github.com/linemem/linemem/lib/metrics"
)

// TypeInterval is the bootstrap interval of one metric over the evaluated
// questions of one type.
type TypeInterval struct {
	Type      string
	Questions int
	Mean      float64
	Lo, Hi    float64
}

// ByType returns, for each type of res.TypeOrder, MeanCI of metric's
// per-question scores of that type, each drawn from its own matrix
// NewIndices(b, questions of the type, seed) as the package documentation
// describes for subsets. Methods evaluated on the same questions therefore
// share each type's resamples. A metric that res did not evaluate is an
// error; b < 1 panics as in NewIndices.
func ByType(res *metrics.Result, metric string, b int, seed uint64, level float64) ([]TypeInterval, error) {
	scores := res.Scores(metric)
	if scores == nil && len(res.QIDs) > 0 {
		return nil, fmt.Errorf("bootstrap: metric %q not in the evaluation result", metric)
	}
	out := make([]TypeInterval, 0, len(res.TypeOrder))
	for _, t := range res.TypeOrder {
		idx := res.TypeIndices(t)
		sub := make([]float64, len(idx))
		for j, i := range idx {
			sub[j] = scores[i]
		}
		mean, lo, hi := NewIndices(b, len(sub), seed).MeanCI(sub, level)
		out = append(out, TypeInterval{Type: t, Questions: len(sub), Mean: mean, Lo: lo, Hi: hi})
	}
	return out, nil
}
