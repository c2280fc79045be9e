package memory_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/trec"
)

const tol = 1e-12 // the same sums, only their order differs

func TestPassageScore(t *testing.T) {
	idf := map[string]float64{"tenni": 1, "camp": 2, "hotel": 3}
	lookup := func(term string) float64 { return idf[term] }
	question := []string{"tenni", "camp", "hotel", "camp"}
	total := 1.0 + 2 + 3 // distinct terms
	cases := []struct {
		name, text string
		want       float64
	}{
		{"empty text", "", 0},
		{"no term", "lunch at noon", 0},
		{"one line", "the camp hotel", (2 + 3) / total},
		// lines 0 and 2 are each other's neighbours only through line 1
		{"three neighbouring lines", "tennis\nwhere?\ncamp hotel", (1 + 2 + 3) / total},
		// tennis is 2 lines away from the others: not in their passage
		{"too far apart", "tennis\nok\nok\ncamp\nhotel", (2 + 3) / total},
		{"best passage wins", "tennis\nx\nx\nx\ncamp\nx\nx\nx\nhotel", 3 / total},
	}
	tok := newEveryday(t)
	for _, c := range cases {
		if got := memory.PassageScore(tok, lookup, question, c.text); math.Abs(got-c.want) > tol {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if got := memory.PassageScore(tok, lookup, nil, "camp"); got != 0 {
		t.Errorf("no question term: %v, want 0", got)
	}
}

func TestRerank(t *testing.T) {
	hits := []trec.Hit{{ChunkID: "a", Score: 10}, {ChunkID: "b", Score: 8}, {ChunkID: "c", Score: 2}}
	passage := []float64{0.2, 1, 0.5}
	cases := []struct {
		lambda float64
		order  []string
		scores []float64
	}{
		{0, []string{"a", "b", "c"}, []float64{10.0 / 10, 8.0 / 10, 2.0 / 10}},
		// S = ½·B/10 + ½·P: a 0.6, b 0.9, c 0.35
		{0.5, []string{"b", "a", "c"}, []float64{0.5*8/10 + 0.5*1, 0.5*10/10 + 0.5*0.2, 0.5*2/10 + 0.5*0.5}},
		{1, []string{"b", "c", "a"}, []float64{1, 0.5, 0.2}},
	}
	for _, c := range cases {
		got := memory.Rerank(hits, passage, c.lambda)
		for i, h := range got {
			if h.ChunkID != c.order[i] || math.Abs(h.Score-c.scores[i]) > tol {
				t.Errorf("λ = %v: #%d is %s %v, want %s %v", c.lambda, i+1, h.ChunkID, h.Score, c.order[i], c.scores[i])
			}
		}
	}
	if hits[0].ChunkID != "a" || hits[0].Score != 10 {
		t.Error("Rerank changed its input")
	}
	if got := memory.Rerank(nil, nil, 0.5); len(got) != 0 {
		t.Errorf("no hits: %v", got)
	}
	// ties keep the BM25 order; hits without a passage score keep their
	// order after the others, at (1 − λ)·B/B_max − 1; B_max 0 counts B as 0
	edge := []struct {
		name    string
		hits    []trec.Hit
		passage []float64
		order   []string
		scores  []float64
	}{
		{"a tie keeps the BM25 order", []trec.Hit{{ChunkID: "a", Score: 4}, {ChunkID: "b", Score: 4}, {ChunkID: "c", Score: 4}},
			[]float64{0.5, 0.5, 0.5}, []string{"a", "b", "c"}, []float64{0.75, 0.75, 0.75}},
		{"hits beyond the passages", []trec.Hit{{ChunkID: "a", Score: 4}, {ChunkID: "b", Score: 2}, {ChunkID: "c", Score: 1}},
			[]float64{0, 1}, []string{"b", "a", "c"}, []float64{0.5*2/4 + 0.5, 0.5 * 4 / 4, 0.5*1/4 - 1}},
		{"no BM25 score", []trec.Hit{{ChunkID: "a", Score: 0}, {ChunkID: "b", Score: 0}},
			[]float64{0.2}, []string{"a", "b"}, []float64{0.5 * 0.2, -1}},
	}
	for _, c := range edge {
		got := memory.Rerank(c.hits, c.passage, 0.5)
		for i, h := range got {
			if h.ChunkID != c.order[i] || !(math.Abs(h.Score-c.scores[i]) <= tol) { // NaN fails
				t.Errorf("%s: #%d is %s %v, want %s %v", c.name, i+1, h.ChunkID, h.Score, c.order[i], c.scores[i])
			}
		}
	}
}

// TestPassageWeightOption: Options.PassageWeight re-ranks the everyday
// search by the best passage (the first window of this question changes at
// λ = 1); a negative weight is λ = 0, the default.
func TestPassageWeightOption(t *testing.T) {
	st := folderStore(t, filepath.Join("..", "..", "testdata", "mixed", "sources"))
	top := func(opts memory.Options) string {
		t.Helper()
		m, err := memory.Open(st, opts)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := m.Search(context.Background(), memory.Query{Text: "what do I need to bring to tennis", K: 5})
		if err != nil || len(resp.Results) == 0 {
			t.Fatalf("%+v: %d results, %v", opts, len(resp.Results), err)
		}
		return resp.Results[0].ChunkID
	}
	bm25Only := top(memory.Options{})
	if got := top(memory.Options{PassageWeight: 1}); got == bm25Only {
		t.Errorf("λ = 1: first window %s, the same as BM25 alone", got)
	}
	if got := top(memory.Options{PassageWeight: -1}); got != bm25Only {
		t.Errorf("λ = −1: first window %s, want BM25 alone's %s", got, bm25Only)
	}
}
