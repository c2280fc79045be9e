package analyzers_test

import (
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
)

func TestChooseThreshold(t *testing.T) {
	sets := []analyzers.Confidences{
		{Kind: analyzers.Answerable, Values: []float64{0.9, 0.8, 0.6, 0.3}},
		{Kind: analyzers.NoAnswer, Values: []float64{0.1, 0.2, 0.7}},
	}
	// Abstaining below at: at ≤ 0.20 lets 0.2 and 0.7 through (0 + 2/3);
	// 0.21 … 0.30 only 0.7 (0 + 1/3); 0.31 … 0.60 flags 0.3 (1/4 + 1/3);
	// the lowest minimum is 0.21.
	th := analyzers.ChooseThreshold(sets)
	if th.At != 0.21 || th.FalseAbstain != 0 || th.FalseAnswer != 1.0/3 {
		t.Errorf("ChooseThreshold = %+v, want At 0.21, FalseAbstain 0, FalseAnswer 1/3", th)
	}
}

func TestMeasureConfidenceMixed(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "mixed")
	c, err := analyzers.LoadFolder("mixed", dir)
	if err != nil {
		t.Fatal(err)
	}
	na, err := analyzers.LoadNoAnswer(dir)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := analyzers.MeasureConfidence(c, na)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{analyzers.Answerable: len(c.Questions), analyzers.NoAnswer: len(na), analyzers.OtherChats: len(c.Questions)}
	if len(sets) != 3 {
		t.Fatalf("%d sets, want 3", len(sets))
	}
	for _, s := range sets {
		if len(s.Values) != want[s.Kind] {
			t.Errorf("%s: %d values, want %d", s.Kind, len(s.Values), want[s.Kind])
		}
		for _, v := range s.Values {
			if v < 0 || v > 1 {
				t.Errorf("%s: confidence %v outside [0, 1]", s.Kind, v)
			}
		}
	}
}
