package analysis

import (
	"errors"
	"fmt"
	"math"
)

// FirstMax returns the position of the first maximum of scores: the spec §10
// selection rule when scores are the configurations' selection metric in
// pairing order then β ascending. Equality is exact float64 equality;
// metrics.Mean rounds once, so equal multisets of per-question scores give
// equal means.
//
// An empty scores or a NaN score is an error.
func FirstMax(scores []float64) (int, error) {
	if len(scores) == 0 {
		return 0, errors.New("analysis: no configurations to select from")
	}
	best := -1
	for i, s := range scores {
		if math.IsNaN(s) {
			return 0, fmt.Errorf("analysis: configuration %d has a NaN score", i)
		}
		if best < 0 || s > scores[best] {
			best = i
		}
	}
	return best, nil
}
