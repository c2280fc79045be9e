package retrieval_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/trec"
)

func TestParseNameMulti(t *testing.T) {
	eb := retrieval.Single{Rep: "embedding_text", Method: "bm25"}
	ev := retrieval.Single{Rep: "embedding_text", Method: "vector"}
	cases := []struct {
		name string
		want retrieval.Spec
	}{
		{"multi:rm3:embedding_text_bm25", retrieval.Spec{Single: eb, Expander: "rm3"}},
		{"multi:phrases:hybrid:embedding_text_bm25+embedding_text_vector@0.40", retrieval.Spec{Fusion: "hybrid", BM25: eb, Vector: ev, Beta: 0.4, Expander: "phrases"}},
		{"mmr:multi:llm:embedding_text_bm25@0.90", retrieval.Spec{Single: eb, Expander: "llm", Remedy: "mmr", Weight: 0.9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := retrieval.ParseName(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || got.String() != c.name {
				t.Errorf("ParseName = %+v (%q), want %+v and the name back", got, got.String(), c.want)
			}
		})
	}
	for _, bad := range []string{"multi:embedding_text_bm25", "multi:bert:embedding_text_bm25", "multi:rm3:mmr:embedding_text_bm25@0.50", "multi:rm3:multi:rm3:summary_bm25", "multi:rm3:summary_x"} {
		if _, err := retrieval.ParseName(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseName(%q): error %v, want one quoting the name", bad, err)
		}
	}
}

func TestMergeSubQueries(t *testing.T) {
	hits := func(ids ...string) []trec.Hit {
		out := make([]trec.Hit, len(ids))
		for i, id := range ids {
			out[i] = trec.Hit{ChunkID: id, Score: float64(len(ids) - i)}
		}
		return out
	}
	const k = retrieval.MultiRRFK
	got := retrieval.MergeSubQueries(hits("a", "b"), [][]trec.Hit{hits("c", "a"), hits("c", "b", "b")})
	want := map[string]float64{
		"a": 1.0/(k+1) + 0.5*(1.0/(k+2)),
		"b": 1.0/(k+2) + 0.5*(1.0/(k+2)), // the repeated b counts once, at rank 2
		"c": 0.5*(1.0/(k+1)) + 0.5*(1.0/(k+1)),
	}
	const tol = 1e-15 // three additions
	if ids := []string{got[0].ChunkID, got[1].ChunkID, got[2].ChunkID}; len(got) != 3 || !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Fatalf("order %v, want a, b, c", got)
	}
	for _, h := range got {
		if math.Abs(h.Score-want[h.ChunkID]) > tol {
			t.Errorf("score(%s) = %v, want %v", h.ChunkID, h.Score, want[h.ChunkID])
		}
	}
	// Equal scores: chunk ID descending.
	tie := retrieval.MergeSubQueries(nil, [][]trec.Hit{hits("x"), hits("y")})
	if tie[0].ChunkID != "y" || tie[0].Score != tie[1].Score {
		t.Errorf("tie order %v, want y before x", tie)
	}
	if got := retrieval.MergeSubQueries(nil, nil); len(got) != 0 {
		t.Errorf("nothing to merge: %v", got)
	}
}

// listExpander answers from a fixed table.
type listExpander map[string][]string

func (listExpander) Name() string { return "llm" }
func (l listExpander) Expand(_ context.Context, q string) ([]string, error) {
	return l[q], nil
}

func TestMultiQueryChangesCandidates(t *testing.T) {
	corpus := retrieval.Corpus{Chunks: []chat.Chunk{
		{ID: "c1", StartAt: "2024-01-01T00:00:00", RawText: "金沢 旅行 準備"},
		{ID: "c2", StartAt: "2024-01-02T00:00:00", RawText: "レンタカー 予約"},
		{ID: "c3", StartAt: "2024-01-03T00:00:00", RawText: "試験 勉強"},
	}}
	b := retrieval.NewBuilder(corpus, nil, retrieval.Options{})
	b.SetExpander(listExpander{"金沢 旅行": {"レンタカー", "無関係"}}) // c2: ½·1/61 < c1: 1/61
	r, err := b.Build("multi:llm:raw_text_bm25")
	if err != nil {
		t.Fatal(err)
	}
	if r.Name() != "multi:llm:raw_text_bm25" {
		t.Errorf("Name() = %q", r.Name())
	}
	got, err := r.Search("金沢 旅行", 0)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := b.Build("raw_text_bm25")
	before, _ := plain.Search("金沢 旅行", 0)
	if len(before) != 1 || len(got) != 2 || got[0].ChunkID != "c1" || got[1].ChunkID != "c2" {
		t.Errorf("question alone %v, with the sub-query %v: want c1 then the new candidate c2", before, got)
	}
	// A question without sub-queries keeps its own ranking.
	same, _ := r.Search("試験", 0)
	if len(same) != 1 || same[0].ChunkID != "c3" {
		t.Errorf("no sub-queries: %v, want c3 alone", same)
	}
	if _, err := retrieval.NewBuilder(corpus, nil, retrieval.Options{}).Build("multi:llm:raw_text_bm25"); err == nil || !strings.Contains(err.Error(), "decompose") {
		t.Errorf("llm without a decomposer: %v, want an error pointing at decompose", err)
	}
}

type noVectors struct{}

func (noVectors) ChunkVectors(string, string) ([]string, int, []float32, error) {
	return nil, 0, nil, nil
}
func (noVectors) QueryVector(_, q string) ([]float32, bool, error) {
	return []float32{1}, q == "stored", nil
}

func TestFoldIn(t *testing.T) {
	f := retrieval.FoldIn{VectorSource: noVectors{}, Model: "m", Embed: func(string) []float32 { return []float32{2} }}
	for _, tc := range []struct {
		model, q string
		want     float32
		ok       bool
	}{{"m", "stored", 1, true}, {"m", "new", 2, true}, {"other", "new", 0, false}} {
		v, ok, err := f.QueryVector(tc.model, tc.q)
		if err != nil || ok != tc.ok || (ok && v[0] != tc.want) {
			t.Errorf("QueryVector(%s, %s) = %v, %v, %v", tc.model, tc.q, v, ok, err)
		}
	}
}
