package retrieval_test

import (
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/retrieval"
)

// TestConformanceSweep fuses the 126 paper configurations from one pair of
// component runs per pairing (Hybrid.ComponentRuns, fusion.FuseTop) and
// checks names, order and Recall@5 / MRR@5 against expected_sweep.json.
// The two metrics are computed inline from their spec §10 definitions.
func TestConformanceSweep(t *testing.T) {
	var want struct {
		Configurations []struct {
			Name    string  `json:"name"`
			Pairing string  `json:"pairing"`
			Recall5 float64 `json:"recall@5"`
			MRR5    float64 `json:"mrr@5"`
		} `json:"configurations"`
	}
	conformance.ReadJSON(t, "expected_sweep.json", &want)
	qs, qrels := conformance.QuestionSet(t)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	builder := retrieval.NewBuilder(readCorpus(t), readVectorSource(t), retrieval.Options{EmbedModel: confModel})
	betas := fusion.BetaGrid()
	if len(want.Configurations) != len(retrieval.PaperPairings)*len(betas) {
		t.Fatalf("expected_sweep.json has %d configurations, want 6 × 21", len(want.Configurations))
	}
	i := 0
	for _, p := range retrieval.PaperPairings {
		r, err := builder.BuildSpec(p.Spec(0))
		if err != nil {
			t.Fatal(err)
		}
		sparse, vec, err := r.(*retrieval.Hybrid).ComponentRuns(texts)
		if err != nil {
			t.Fatal(err)
		}
		for _, beta := range betas {
			cfg := want.Configurations[i]
			i++
			if p.Name(beta) != cfg.Name || p.Label != cfg.Pairing {
				t.Fatalf("configuration %d is %s (%s), want %s (%s)", i, p.Name(beta), p.Label, cfg.Name, cfg.Pairing)
			}
			h, err := builder.Build(cfg.Name)
			if err != nil {
				t.Fatal(err)
			}
			var recall, mrr float64
			evaluated := 0
			for j, q := range qs {
				gold := primaryGold(qrels[q.QID])
				if len(gold) == 0 {
					continue
				}
				evaluated++
				fused := fusion.FuseTop(h.(*retrieval.Hybrid).Fuser, sparse[j], vec[j], 0)
				found := 0
				for rank, hit := range fused[:min(5, len(fused))] {
					if gold[hit.ChunkID] {
						if found == 0 {
							mrr += 1 / float64(rank+1)
						}
						found++
					}
				}
				recall += float64(found) / float64(len(gold))
			}
			recall /= float64(evaluated)
			mrr /= float64(evaluated)
			if !near(recall, cfg.Recall5, scoreTol) || !near(mrr, cfg.MRR5, scoreTol) {
				t.Errorf("%s: recall@5, mrr@5 = %v, %v; want %v, %v", cfg.Name, recall, mrr, cfg.Recall5, cfg.MRR5)
			}
		}
	}
}

func primaryGold(rels map[string]int) map[string]bool {
	gold := map[string]bool{}
	for id, rel := range rels {
		if rel == 2 {
			gold[id] = true
		}
	}
	return gold
}
