package beyond

import (
	"testing"

	"github.com/linemem/linemem/lib/experiment"
)

// OtherCorporaGains scores each corpus by what the other corpora select:
// with corpora A (config c1 best) and B (config c2 best) and one single
// retriever s, A gets c2's scores − s's, and B gets c1's.
func TestOtherCorporaGains(t *testing.T) {
	p := experiment.PaperProtocol()
	p.B = 200
	sel := func(c1, c2, s []float64) Selection {
		return Selection{Configs: []Candidate{{Name: "c1", Scores: c1}, {Name: "c2", Scores: c2}}, Singles: []Candidate{{Name: "s", Scores: s}}}
	}
	a := sel([]float64{1, 1}, []float64{0, 1}, []float64{0, 0})
	b := sel([]float64{0, 0, 0}, []float64{1, 1, 0}, []float64{1, 0, 0})
	gains := make([]CorpusGain, 2)
	OtherCorporaGains(gains, []Selection{a, b}, p)
	for i, want := range []struct {
		config string
		mean   float64
	}{
		{"c2", (0.0 + 1 - 0 - 0) / 2}, // B selects c2: mean of (0, 1) − (0, 0)
		{"c1", (0.0 + 0 + 0 - 1) / 3}, // A selects c1: mean of (0, 0, 0) − (1, 0, 0)
	} {
		if g := gains[i]; g.OtherConfig != want.config || g.OtherCorpora.Mean != want.mean || g.OtherCorpora.Lo > g.OtherCorpora.Mean || g.OtherCorpora.Hi < g.OtherCorpora.Mean {
			t.Errorf("corpus %d: %s %+v, want %s with mean %v inside its interval", i, g.OtherConfig, g.OtherCorpora, want.config, want.mean)
		}
	}
	one := make([]CorpusGain, 1)
	OtherCorporaGains(one, []Selection{a}, p)
	if one[0] != (CorpusGain{}) {
		t.Errorf("a single corpus got %+v; it has no other to select on", one[0])
	}
}
