package fusion_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

func TestMinMax(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		scores []float64
		want   []float64
	}{
		{"empty", nil, []float64{}},
		{"single hit", []float64{3}, []float64{0}},
		{"all equal", []float64{2, 2, 2}, []float64{0, 0, 0}},
		{"spread", []float64{4, 1, 2.5}, []float64{(4 - 1) / 3.0, 0, (2.5 - 1) / 3.0}},
		{"negative scores", []float64{-1, -3}, []float64{(-1 + 3) / 2.0, 0}},
		{"a NaN makes every value 0", []float64{4, nan, 1}, []float64{0, 0, 0}},
		{"+Inf: finite to 0, infinite to NaN", []float64{math.Inf(1), 1}, []float64{nan, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make([]ranking.Hit, len(tt.scores))
			for i, s := range tt.scores {
				in[i] = ranking.Hit{ChunkID: fmt.Sprint(i), Score: s}
			}
			got := fusion.MinMax(in)
			if got == nil || !slices.EqualFunc(got, tt.want, func(a, b float64) bool {
				return a == b || math.IsNaN(a) && math.IsNaN(b)
			}) {
				t.Errorf("MinMax(%v) = %v, want %v", tt.scores, got, tt.want)
			}
		})
	}
}

func ExampleMinMax() {
	hits := []ranking.Hit{{ChunkID: "a", Score: 9}, {ChunkID: "b", Score: 5}, {ChunkID: "c", Score: 1}}
	fmt.Println(fusion.MinMax(hits))
	// Output: [1 0.5 0]
}
