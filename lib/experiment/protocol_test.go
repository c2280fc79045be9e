package experiment_test

import (
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

func TestPaperProtocol(t *testing.T) {
	p := experiment.PaperProtocol()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.B != bootstrap.DefaultB || p.Seed != bootstrap.DefaultSeed || p.Level != bootstrap.DefaultLevel {
		t.Errorf("bootstrap %d, %d, %g; want lib/bootstrap's defaults", p.B, p.Seed, p.Level)
	}
	if p.RunDepth != fusion.Depth || p.Tokenizer != tokenize.Default || p.EmbeddingCap != represent.DefaultEmbeddingCap {
		t.Errorf("run depth %d, tokenizer %q, cap %d; want fusion.Depth, tokenize.Default, represent.DefaultEmbeddingCap", p.RunDepth, p.Tokenizer, p.EmbeddingCap)
	}
	if len(p.Betas)*len(p.Pairings) != 126 || p.SelectionMetric != metrics.Recall5 || len(p.Singles) != 5 {
		t.Errorf("%d β × %d pairings, selection %s, %d singles; want 21 × 6, recall@5, 5", len(p.Betas), len(p.Pairings), p.SelectionMetric, len(p.Singles))
	}
	q := experiment.PaperProtocol()
	q.Metrics[0], q.Pairings[0].Label = "changed", "changed"
	if !reflect.DeepEqual(experiment.PaperProtocol(), p) {
		t.Error("changing one protocol's slices changed the next PaperProtocol()")
	}
}

func TestProtocolValidate(t *testing.T) {
	for name, change := range map[string]func(*experiment.Protocol){
		"no resamples":         func(p *experiment.Protocol) { p.B = 0 },
		"level 1":              func(p *experiment.Protocol) { p.Level = 1 },
		"run depth 0":          func(p *experiment.Protocol) { p.RunDepth = 0 },
		"unknown metric":       func(p *experiment.Protocol) { p.Metrics = append(p.Metrics, "precision@5") },
		"selection not metric": func(p *experiment.Protocol) { p.SelectionMetric = metrics.Recall10 },
		"no weights":           func(p *experiment.Protocol) { p.Betas = nil },
		"weight above 1":       func(p *experiment.Protocol) { p.Betas = []float64{0.5, 1.5} },
		"unknown single":       func(p *experiment.Protocol) { p.Singles = []string{"chat_bm25"} },
		"unknown tokenizer":    func(p *experiment.Protocol) { p.Tokenizer = "mecab" },
		"no embedding cap":     func(p *experiment.Protocol) { p.EmbeddingCap = 0 },
		"no pairings":          func(p *experiment.Protocol) { p.Pairings = nil },
	} {
		t.Run(name, func(t *testing.T) {
			p := experiment.PaperProtocol()
			change(&p)
			if err := p.Validate(); err == nil {
				t.Error("no error")
			}
		})
	}
}

// Every rule's sweep fuses through the same routine as the retriever of the
// configuration's name, so a configuration's run equals that retriever's.
func TestSweepFusionEqualsTheNamedRetriever(t *testing.T) {
	s := fixture()
	for _, kind := range []string{retrieval.FusionLinear, retrieval.FusionZScore, retrieval.FusionRRF} {
		t.Run(kind, func(t *testing.T) {
			w, err := s.SweepFusion(kind, s.Protocol.Pairings[:2], []float64{0, 0.35, 1})
			if err != nil {
				t.Fatal(err)
			}
			want := 2 * 3
			if kind == retrieval.FusionRRF {
				want = 2
			}
			if len(w.Configs) != want {
				t.Fatalf("%d configurations, want %d", len(w.Configs), want)
			}
			for _, c := range w.Configs {
				run, err := s.Run(c.Name, 0)
				if err != nil {
					t.Fatal(err)
				}
				if got := w.FusedRun(c); !reflect.DeepEqual(got, run) {
					t.Errorf("%s: sweep run %v, retriever run %v", c.Name, got, run)
				}
				if c.Name != c.Spec.String() || c.Beta != c.Spec.Beta || c.Spec.Fusion != kind {
					t.Errorf("configuration %+v does not match its spec", c)
				}
			}
		})
	}
	if _, err := s.SweepFusion("max", nil, nil); err == nil {
		t.Error("an unknown fusion gave no error")
	}
}
