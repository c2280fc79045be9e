package beyond

import (
	"fmt"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/represent"
)

// Vectors is an in-memory retrieval.VectorSource: chunk vectors of some
// representations under one model, and any query folded in by the model.
type Vectors struct {
	Model string
	Embed func(text string) []float32
	ids   []string
	dim   int
	byRep map[string][]float32
}

// ChunkVectors implements retrieval.VectorSource.
func (v *Vectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	data, ok := v.byRep[rep]
	if !ok || model != v.Model {
		return nil, 0, nil, fmt.Errorf("no %s vectors under model %q", rep, model)
	}
	return v.ids, v.dim, data, nil
}

// QueryVector implements retrieval.VectorSource: every text is folded in
// (with an Encoder's vectors, every question it was given).
func (v *Vectors) QueryVector(model, text string) ([]float32, bool, error) {
	if model != v.Model {
		return nil, false, nil
	}
	vec := v.Embed(text)
	return vec, vec != nil, nil
}

// FitVectors fits the local LSA embedder on fit, the texts of the chunks
// capped at represent.DefaultEmbeddingCap as the study's local embedder does,
// with opts resolved from the data (lsa.Resolve: the dimension and minimum
// document frequency the study's embedder would choose), and embeds each
// representation's texts (reps maps a representation name to one text per
// chunk, capped the same way). Vectors are stored under the fitted model's
// name; queries are folded in by the model.
func FitVectors(chunks []chat.Chunk, fit []string, reps map[string][]string, opts lsa.Options) (*Vectors, error) {
	capped := capAll(fit)
	resolved, err := lsa.Resolve(capped, opts)
	if err != nil {
		return nil, err
	}
	model, err := lsa.Fit(capped, resolved)
	if err != nil {
		return nil, err
	}
	v := &Vectors{Model: model.Model(), Embed: model.Vector, dim: model.Dimension(), byRep: map[string][]float32{}}
	for _, c := range chunks {
		v.ids = append(v.ids, c.ID)
	}
	for rep, texts := range reps {
		data := make([]float32, 0, len(texts)*v.dim)
		for _, t := range capAll(texts) {
			data = append(data, model.Vector(t)...)
		}
		v.byRep[rep] = data
	}
	return v, nil
}

func capAll(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i], _ = represent.CapInput(t, represent.DefaultEmbeddingCap)
	}
	return out
}
