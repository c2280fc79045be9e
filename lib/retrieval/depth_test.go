package retrieval_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/retrieval"
)

// randomVectors is a seeded in-memory VectorSource of dimension 4.
type randomVectors struct {
	ids  []string
	data []float32
	q    map[string][]float32
}

func (r randomVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	return r.ids, 4, r.data, nil
}

func (r randomVectors) QueryVector(model, question string) ([]float32, bool, error) {
	v, ok := r.q[question]
	return v, ok, nil
}

// TestHybridFusesTheTopDepthOfEachComponent uses a corpus larger than
// fusion.Depth in which every chunk matches the question, so both component
// lists are longer than the depth: the hybrid must equal the fuser applied to
// the components' full rankings (the fuser keeps the top fusion.Depth of
// each), one by one and batched.
func TestHybridFusesTheTopDepthOfEachComponent(t *testing.T) {
	const n = 3*fusion.Depth/2 + 7
	rng := rand.New(rand.NewPCG(7, 7))
	var chunks []chat.Chunk
	vs := randomVectors{q: map[string][]float32{}}
	for i := range n {
		id := fmt.Sprintf("c%04d", i)
		text := strings.Repeat("リンゴ ", 1+rng.IntN(5)) + strings.Repeat("ミカン ", rng.IntN(9))
		chunks = append(chunks, chat.Chunk{ID: id, Source: "s.json", Index: i, StartAt: fmt.Sprintf("2024-01-01T%02d:%02d:00", i/60%24, i%60), RawText: text})
		vs.ids = append(vs.ids, id)
		for range 4 {
			vs.data = append(vs.data, float32(rng.NormFloat64()))
		}
	}
	questions := []string{"リンゴの話", "リンゴとミカン"}
	for _, q := range questions {
		vs.q[q] = []float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
	}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks}, vs, retrieval.Options{EmbedModel: "m"})
	for _, name := range []string{"hybrid:raw_text_bm25+raw_text_vector@0.45", "rrf:raw_text_bm25+raw_text_vector", "zscore:raw_text_bm25+raw_text_vector@0.30"} {
		r, err := b.Build(name)
		if err != nil {
			t.Fatal(err)
		}
		h := r.(*retrieval.Hybrid)
		batch, err := h.SearchBatch(questions, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range questions {
			sparse, err := h.Sparse.Search(q, 0)
			if err != nil {
				t.Fatal(err)
			}
			dense, err := h.Dense.Search(q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(sparse) <= fusion.Depth || len(dense) <= fusion.Depth {
				t.Fatalf("components return %d and %d hits; the test needs more than %d each", len(sparse), len(dense), fusion.Depth)
			}
			want := h.Fuser.Fuse(sparse, dense)
			got, err := h.Search(q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s %q: Search(q, 0) differs from the fuser over the components' full rankings (%d vs %d hits)", name, q, len(got), len(want))
			}
			if !reflect.DeepEqual(batch[i], want) {
				t.Errorf("%s %q: SearchBatch differs from the fuser over the components' full rankings", name, q)
			}
		}
	}
}
