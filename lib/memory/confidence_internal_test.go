package memory

import (
	"math"
	"testing"
)

func TestConfidenceLowBelowTheThresholdOnly(t *testing.T) {
	for _, c := range []struct {
		v   float64
		low bool
	}{
		{0, true},
		{math.Nextafter(DefaultMinConfidence, 0), true},
		{DefaultMinConfidence, false},
		{1, false},
	} {
		got := confidence(c.v)
		if got.Low != c.low || got.Value != c.v || got.Threshold != DefaultMinConfidence {
			t.Errorf("confidence(%v) = %+v, want low %v against %v", c.v, *got, c.low, DefaultMinConfidence)
		}
	}
}
