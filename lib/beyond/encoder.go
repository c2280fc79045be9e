package beyond

import (
	"context"
	"fmt"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/represent"
)

// DefaultEncoderBatch is how many texts an Encoder sends per request.
const DefaultEncoderBatch = 64

// Encoder embeds documents and questions with a provider.Embedder (a neural
// model behind an OpenAI-compatible server, say) instead of fitting the
// local LSA embedder on each corpus. Each distinct text is sent once per
// Encoder and its vector kept in memory, so the units of one study (whose
// documents share summaries and turn texts) cost one embedding per text.
// Inputs are capped at represent.DefaultEmbeddingCap as everywhere else.
// An Encoder is not safe for concurrent use.
type Encoder struct {
	Embedder provider.Embedder
	Batch    int // texts per request; 0 = DefaultEncoderBatch
	Sent     int // texts sent so far (the cost of the study)
	seen     map[string][]float32
}

// Vectors embeds the representations of chunks (reps maps a representation
// name to one text per chunk) and the questions, and returns them as an
// in-memory vector source under the embedder's model; a question it was not
// given has no vector.
func (e *Encoder) Vectors(ctx context.Context, chunks []chat.Chunk, reps map[string][]string, questions []string) (*Vectors, error) {
	var all []string
	for _, texts := range reps {
		all = append(all, capAll(texts)...)
	}
	all = append(all, capAll(questions)...)
	if err := e.embed(ctx, all); err != nil {
		return nil, err
	}
	v := &Vectors{Model: e.Embedder.Model(), byRep: map[string][]float32{}}
	for _, c := range chunks {
		v.ids = append(v.ids, c.ID)
	}
	for rep, texts := range reps {
		data := make([]float32, 0, len(texts)*v.dim)
		for _, t := range capAll(texts) {
			vec := e.seen[t]
			if vec == nil {
				return nil, fmt.Errorf("no %s vector for an empty %s text", e.Embedder.Model(), rep)
			}
			if v.dim == 0 {
				v.dim = len(vec)
			}
			data = append(data, vec...)
		}
		v.byRep[rep] = data
	}
	v.Embed = func(text string) []float32 {
		capped, _ := represent.CapInput(text, represent.DefaultEmbeddingCap)
		return e.seen[capped]
	}
	return v, nil
}

// embed sends the texts it has no vector of yet, Batch at a time.
func (e *Encoder) embed(ctx context.Context, texts []string) error {
	if e.seen == nil {
		e.seen = map[string][]float32{}
	}
	var todo []string
	queued := map[string]bool{}
	for _, t := range texts {
		if _, ok := e.seen[t]; !ok && !queued[t] && t != "" {
			queued[t] = true
			todo = append(todo, t)
		}
	}
	batch := e.Batch
	if batch <= 0 {
		batch = DefaultEncoderBatch
	}
	for start := 0; start < len(todo); start += batch {
		part := todo[start:min(start+batch, len(todo))]
		res, err := e.Embedder.Embed(ctx, part)
		if err != nil {
			return fmt.Errorf("embedding with %s: %w", e.Embedder.Model(), err)
		}
		if len(res.Vectors) != len(part) {
			return fmt.Errorf("embedding with %s: %d vectors for %d texts", e.Embedder.Model(), len(res.Vectors), len(part))
		}
		for i, t := range part {
			e.seen[t] = res.Vectors[i]
		}
		e.Sent += len(part)
	}
	return nil
}

// UnitVectors embeds the summary and embedding_text of chunks (summaries by
// chunk ID) and the question texts: a unit's vector source.
func (e *Encoder) UnitVectors(chunks []chat.Chunk, summaries map[string]string, qs []questions.Question) (*Vectors, error) {
	reps := map[string][]string{}
	for _, r := range []string{represent.Summary, represent.EmbeddingTextRep} {
		t, err := represent.Texts(r, chunks, summaries)
		if err != nil {
			return nil, err
		}
		reps[r] = t
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return e.Vectors(context.Background(), chunks, reps, texts)
}
