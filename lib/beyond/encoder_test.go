package beyond_test

import (
	"context"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/represent"
)

// countingEmbedder gives each text the vector (length in runes, 1) and
// records every text it is sent.
type countingEmbedder struct{ sent []string }

func (c *countingEmbedder) Name() string   { return "counting" }
func (c *countingEmbedder) Model() string  { return "counting-2" }
func (c *countingEmbedder) Dimension() int { return 2 }
func (c *countingEmbedder) Params() string { return "" }
func (c *countingEmbedder) Remote() bool   { return false }
func (c *countingEmbedder) Embed(_ context.Context, texts []string) (provider.EmbedResult, error) {
	var r provider.EmbedResult
	for _, t := range texts {
		c.sent = append(c.sent, t)
		r.Vectors = append(r.Vectors, []float32{float32(len([]rune(t))), 1})
	}
	return r, nil
}

// TestEncoderSendsEachTextOnce: texts shared between representations,
// questions and calls are sent once, capped at the embedding cap, in
// batches of Batch; chunk rows follow the chunks; a question given has a
// vector, another has none.
func TestEncoderSendsEachTextOnce(t *testing.T) {
	emb := &countingEmbedder{}
	enc := &beyond.Encoder{Embedder: emb, Batch: 2}
	long := strings.Repeat("あ", represent.DefaultEmbeddingCap+10)
	chunks := []chat.Chunk{{ID: "c1"}, {ID: "c2"}}
	reps := map[string][]string{"summary": {"same", "same"}, "embedding_text": {"same", long}}
	v, err := enc.Vectors(context.Background(), chunks, reps, []string{"q?", "same"})
	if err != nil {
		t.Fatal(err)
	}
	if len(emb.sent) != 3 || enc.Sent != 3 {
		t.Fatalf("sent %d texts (%d counted), want 3 distinct: same, the capped long text, q?", len(emb.sent), enc.Sent)
	}
	capped, _ := represent.CapInput(long, represent.DefaultEmbeddingCap)
	ids, dim, data, err := v.ChunkVectors("embedding_text", "counting-2")
	if err != nil || len(ids) != 2 || dim != 2 || data[0] != 4 || data[2] != float32(len([]rune(capped))) {
		t.Errorf("embedding_text rows %v %d %v %v; want c1 = (4, 1), c2 = (%d, 1), its capped length", ids, dim, data, err, len([]rune(capped)))
	}
	if _, ok, _ := v.QueryVector("counting-2", "q?"); !ok {
		t.Error("a question given has no vector")
	}
	if _, ok, _ := v.QueryVector("counting-2", "never sent"); ok {
		t.Error("a question never given has a vector")
	}
	if _, err := enc.Vectors(context.Background(), chunks, map[string][]string{"summary": {"same", "q?"}}, nil); err != nil || len(emb.sent) != 3 {
		t.Errorf("a second call sent %d texts in all (%v), want none new", len(emb.sent), err)
	}
	if _, err := enc.Vectors(context.Background(), chunks, map[string][]string{"summary": {"", "q?"}}, nil); err == nil {
		t.Error("an empty text got a vector")
	}
}
