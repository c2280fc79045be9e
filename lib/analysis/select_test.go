package analysis_test

import (
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/analysis"
)

func TestFirstMax(t *testing.T) {
	cases := []struct {
		name   string
		scores []float64
		want   int
	}{
		{"single", []float64{0.2}, 0},
		{"tie keeps the first", []float64{0.5, 0.7, 0.7, 0.6}, 1},
		{"later maximum wins", []float64{0.7, 0.7, 0.70000000000000007}, 2},
		{"all zero", []float64{0, 0}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := analysis.FirstMax(c.scores)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("selected #%d, want #%d", got, c.want)
			}
		})
	}
	bad := map[string][]float64{
		"empty input": nil,
		"NaN score":   {0.5, nan()},
	}
	for name, scores := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := analysis.FirstMax(scores); err == nil {
				t.Error("no error")
			}
		})
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

// The conformance sweep lists its 126 configurations in spec order; FirstMax
// over their Recall@5 must pick the same one as the reference implementation.
func TestFirstMaxConformance(t *testing.T) {
	var sweep struct {
		Configurations []struct {
			Name    string  `json:"name"`
			Recall5 float64 `json:"recall@5"`
		} `json:"configurations"`
		Selected struct {
			Name string `json:"name"`
		} `json:"selected"`
		SelectedIndex int `json:"selected_index"`
	}
	conformance.ReadJSON(t, "expected_sweep.json", &sweep)
	if len(sweep.Configurations) != 126 {
		t.Fatalf("%d configurations, want 126", len(sweep.Configurations))
	}
	scores := make([]float64, len(sweep.Configurations))
	for i, c := range sweep.Configurations {
		scores[i] = c.Recall5
	}
	got, err := analysis.FirstMax(scores)
	if err != nil {
		t.Fatal(err)
	}
	if got != sweep.SelectedIndex || sweep.Configurations[got].Name != sweep.Selected.Name {
		t.Errorf("selected #%d (%s), want #%d (%s)", got, sweep.Configurations[got].Name, sweep.SelectedIndex, sweep.Selected.Name)
	}
}
