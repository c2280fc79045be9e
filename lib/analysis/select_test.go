package analysis_test

import (
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/analysis"
)

func cfg(name string, recall float64) analysis.Config {
	return analysis.Config{Name: name, Scores: map[string]float64{"recall@5": recall}}
}

func TestSelect(t *testing.T) {
	cases := []struct {
		name    string
		configs []analysis.Config
		want    string
	}{
		{"single", []analysis.Config{cfg("a", 0.2)}, "a"},
		{"tie keeps the first", []analysis.Config{cfg("a", 0.5), cfg("b", 0.7), cfg("c", 0.7), cfg("d", 0.6)}, "b"},
		{"later maximum wins", []analysis.Config{cfg("a", 0.7), cfg("b", 0.7), cfg("c", 0.70000000000000007)}, "c"},
		{"all zero", []analysis.Config{cfg("a", 0), cfg("b", 0)}, "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := analysis.Select(c.configs, "recall@5")
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != c.want {
				t.Errorf("selected %q, want %q", got.Name, c.want)
			}
		})
	}
	bad := map[string][]analysis.Config{
		"empty input":    nil,
		"missing metric": {cfg("a", 0.5), {Name: "b", Scores: map[string]float64{"mrr@5": 1}}},
		"NaN score":      {cfg("a", 0.5), cfg("b", nan())},
	}
	for name, configs := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := analysis.Select(configs, "recall@5"); err == nil {
				t.Error("no error")
			}
		})
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

// The conformance sweep lists its 126 configurations in spec order; Select
// must pick the same one as the reference implementation.
func TestSelectConformance(t *testing.T) {
	var sweep struct {
		Configurations []map[string]any `json:"configurations"`
		Selected       struct {
			Name string `json:"name"`
		} `json:"selected"`
		SelectedIndex int `json:"selected_index"`
	}
	conformance.ReadJSON(t, "expected_sweep.json", &sweep)
	var configs []analysis.Config
	for _, c := range sweep.Configurations {
		scores := map[string]float64{}
		for _, m := range []string{"recall@5", "mrr@5", "ndcg@5"} {
			scores[m] = c[m].(float64)
		}
		configs = append(configs, analysis.Config{Name: c["name"].(string), Pairing: c["pairing"].(string), Beta: c["beta"].(float64), Scores: scores})
	}
	if len(configs) != 126 {
		t.Fatalf("%d configurations, want 126", len(configs))
	}
	got, err := analysis.Select(configs, "recall@5")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != sweep.Selected.Name || got.Name != configs[sweep.SelectedIndex].Name {
		t.Errorf("selected %q, want %q (index %d)", got.Name, sweep.Selected.Name, sweep.SelectedIndex)
	}
}
