package retrieval_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/retrieval"
)

func TestParseName(t *testing.T) {
	sb := retrieval.Single{Rep: "summary", Method: "bm25"}
	ev := retrieval.Single{Rep: "embedding_text", Method: "vector"}
	cases := []struct {
		name string
		want retrieval.Spec
	}{
		{"raw_text_bm25", retrieval.Spec{Single: retrieval.Single{Rep: "raw_text", Method: "bm25"}}},
		{"embedding_text_vector", retrieval.Spec{Single: ev}},
		{"raw_text_vector", retrieval.Spec{Single: retrieval.Single{Rep: "raw_text", Method: "vector"}}},
		{"hybrid:summary_bm25+embedding_text_vector@0.45", retrieval.Spec{Fusion: "hybrid", BM25: sb, Vector: ev, Beta: 0.45}},
		{"hybrid:summary_bm25+embedding_text_vector@1.00", retrieval.Spec{Fusion: "hybrid", BM25: sb, Vector: ev, Beta: 1}},
		{"rrf:summary_bm25+embedding_text_vector", retrieval.Spec{Fusion: "rrf", BM25: sb, Vector: ev}},
		{"zscore:summary_bm25+embedding_text_vector@0.00", retrieval.Spec{Fusion: "zscore", BM25: sb, Vector: ev}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := retrieval.ParseName(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("ParseName = %+v, want %+v", got, c.want)
			}
			if got.String() != c.name {
				t.Errorf("String() = %q, want the name back", got.String())
			}
		})
	}
}

func TestParseNameErrors(t *testing.T) {
	cases := []struct{ name, want string }{
		{"", "expected {rep}_bm25"},
		{"title_bm25", `unknown representation "title"`},
		{"summary_splade", "expected {rep}_bm25"},
		{"hybrid:summary_bm25+summary_vector", "@{β}"},
		{"hybrid:summary_bm25+summary_vector@0.4", "two decimals"},
		{"hybrid:summary_bm25+summary_vector@1.05", "two decimals"},
		{"hybrid:summary_vector+summary_bm25@0.50", "_bm25 retriever before +"},
		{"hybrid:summary_bm25@0.50", "joined by +"},
		{"rrf:summary_bm25+summary_vector@0.50", "rrf takes no β"},
		{"combsum:summary_bm25+summary_vector", `unknown fusion "combsum"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := retrieval.ParseName(c.name)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestPaperPairings(t *testing.T) {
	want := []string{
		"S-BM25+S-Vec hybrid:summary_bm25+summary_vector@0.50",
		"S-BM25+E-Vec hybrid:summary_bm25+embedding_text_vector@0.50",
		"R-BM25+S-Vec hybrid:raw_text_bm25+summary_vector@0.50",
		"R-BM25+E-Vec hybrid:raw_text_bm25+embedding_text_vector@0.50",
		"E-BM25+S-Vec hybrid:embedding_text_bm25+summary_vector@0.50",
		"E-BM25+E-Vec hybrid:embedding_text_bm25+embedding_text_vector@0.50",
	}
	var got []string
	for _, p := range retrieval.PaperPairings {
		got = append(got, p.Label+" "+p.Name(0.5))
	}
	if !slices.Equal(got, want) {
		t.Errorf("PaperPairings = %q, want %q", got, want)
	}
}

// memVectors is a VectorSource held in maps.
type memVectors struct {
	ids     []string
	dim     int
	data    []float32
	queries map[string][]float32
	calls   atomic.Int64
}

func (m *memVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	m.calls.Add(1)
	if model != "m" {
		return nil, 0, nil, errors.New("unknown model")
	}
	return m.ids, m.dim, m.data, nil
}

func (m *memVectors) QueryVector(model, question string) ([]float32, bool, error) {
	q, ok := m.queries[question]
	return q, ok, nil
}

func smallCorpus() retrieval.Corpus {
	return retrieval.Corpus{
		Chunks: []chat.Chunk{
			{ID: "c1", StartAt: "2024-03-10T10:00:00", RawText: "2024-03-10 10:00 A: 数学のテスト範囲"},
			{ID: "c2", StartAt: "2024-03-11T10:00:00", RawText: "2024-03-11 10:00 B: 京都の新幹線"},
		},
		Summaries: map[string]string{"c1": "数学の話", "c2": "京都旅行"},
	}
}

func TestBuilderErrors(t *testing.T) {
	vectors := func() *memVectors {
		return &memVectors{ids: []string{"c1", "c2"}, dim: 2, data: []float32{1, 0, 0, 1}, queries: map[string][]float32{"数学": {1, 0}, "short": {1}}}
	}
	cases := []struct {
		name      string
		corpus    retrieval.Corpus
		vs        *memVectors
		opts      retrieval.Options
		retriever string
		query     string
		want      string
	}{
		{"missing summaries counted", retrieval.Corpus{Chunks: smallCorpus().Chunks, Summaries: map[string]string{"c1": "x"}}, nil, retrieval.Options{}, "embedding_text_bm25", "", "1 of 2 chunks have no summary"},
		{"unknown tokenizer", smallCorpus(), nil, retrieval.Options{Tokenizer: "mecab"}, "raw_text_bm25", "", "known: paper-regex"},
		{"no embedding model", smallCorpus(), vectors(), retrieval.Options{}, "summary_vector", "", "no embedding model"},
		{"vector source error", smallCorpus(), vectors(), retrieval.Options{EmbedModel: "other"}, "summary_vector", "", "unknown model"},
		{"chunk without vector", smallCorpus(), &memVectors{ids: []string{"c1"}, dim: 2, data: []float32{1, 0}}, retrieval.Options{EmbedModel: "m"}, "summary_vector", "", "1 of 2 chunks have no summary vector"},
		{"vector for unknown chunk", smallCorpus(), &memVectors{ids: []string{"c1", "c2", "c9"}, dim: 1, data: []float32{1, 1, 1}}, retrieval.Options{EmbedModel: "m"}, "summary_vector", "", "chunk c9, which is not in the corpus"},
		{"missing query vector names the question", smallCorpus(), vectors(), retrieval.Options{EmbedModel: "m"}, "summary_vector", "京都はいつ？", `no query vector for question "京都はいつ？"`},
		{"query vector of wrong dimension", smallCorpus(), vectors(), retrieval.Options{EmbedModel: "m"}, "hybrid:raw_text_bm25+summary_vector@0.50", "short", "dimension 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var vs retrieval.VectorSource
			if c.vs != nil {
				vs = c.vs
			}
			r, err := retrieval.NewBuilder(c.corpus, vs, c.opts).Build(c.retriever)
			if err == nil {
				_, err = r.Search(c.query, 5)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestBuilderSharesIndexes(t *testing.T) {
	vs := &memVectors{ids: []string{"c1", "c2"}, dim: 2, data: []float32{1, 0, 0, 1}, queries: map[string][]float32{}}
	b := retrieval.NewBuilder(smallCorpus(), vs, retrieval.Options{EmbedModel: "m"})
	var sparse []*retrieval.BM25
	for _, beta := range []string{"0.00", "0.50", "1.00"} {
		r, err := b.Build("hybrid:summary_bm25+summary_vector@" + beta)
		if err != nil {
			t.Fatal(err)
		}
		sparse = append(sparse, r.(*retrieval.Hybrid).Sparse)
	}
	if sparse[0].Index != sparse[1].Index || sparse[1].Index != sparse[2].Index {
		t.Error("hybrids over one representation built separate BM25 indexes")
	}
	if n := vs.calls.Load(); n != 1 {
		t.Errorf("chunk vectors loaded %d times, want once", n)
	}
	single, err := b.Build("summary_bm25")
	if err != nil {
		t.Fatal(err)
	}
	if single.(*retrieval.BM25).Index != sparse[0].Index {
		t.Error("single retriever did not reuse the hybrid's index")
	}
	if got := single.(*retrieval.BM25).Tokenizer(); got != "paper-regex" {
		t.Errorf("Tokenizer() = %q, want the default", got)
	}
}

func TestEmptyCorpus(t *testing.T) {
	b := retrieval.NewBuilder(retrieval.Corpus{}, nil, retrieval.Options{})
	r, err := b.Build("summary_bm25")
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Search("数学", 0)
	if err != nil || len(hits) != 0 {
		t.Errorf("Search = %v, %v; want no hits", hits, err)
	}
}

func TestHybridSearchEqualsFuseTop(t *testing.T) {
	vs := &memVectors{ids: []string{"c1", "c2"}, dim: 2, data: []float32{1, 0, 0.6, 0.8}, queries: map[string][]float32{"数学のテスト": {1, 1}}}
	b := retrieval.NewBuilder(smallCorpus(), vs, retrieval.Options{EmbedModel: "m"})
	r, err := b.Build("hybrid:raw_text_bm25+summary_vector@0.30")
	if err != nil {
		t.Fatal(err)
	}
	h := r.(*retrieval.Hybrid)
	got, err := h.Search("数学のテスト", 0)
	if err != nil {
		t.Fatal(err)
	}
	sparse, _ := h.Sparse.Search("数学のテスト", 0)
	vec, _ := h.Dense.Search("数学のテスト", 0)
	if want := fusion.FuseTop(h.Fuser, sparse, vec, 0); !slices.Equal(got, want) {
		t.Errorf("Search = %v, FuseTop(full components) = %v", got, want)
	}
	// c2: vec' = 1 (cosine 1.4/√2 is the max), no BM25 match → 0.7·1;
	// c1: vec' = 0 (the min), bm25' = 0 (sole match, max = min) → 0.
	if len(got) != 2 || got[0].ChunkID != "c2" || got[0].Score != 0.7*1 || got[1].Score != 0 {
		t.Errorf("Search = %v, want c2 at 0.7, then c1 at 0", got)
	}
}

func ExampleBuilder_Build() {
	corpus := retrieval.Corpus{Chunks: []chat.Chunk{
		{ID: "c1", StartAt: "2024-03-10T10:00:00", RawText: "2024-03-10 10:00 A: 数学のテスト範囲は三角関数まで"},
		{ID: "c2", StartAt: "2024-03-11T09:00:00", RawText: "2024-03-11 09:00 B: 京都行きの新幹線は9時発"},
	}}
	r, err := retrieval.NewBuilder(corpus, nil, retrieval.Options{}).Build("raw_text_bm25")
	if err != nil {
		panic(err)
	}
	hits, err := r.Search("京都へ行く新幹線は何時発？", 5)
	if err != nil {
		panic(err)
	}
	for _, h := range hits {
		fmt.Printf("%s %s %.3f\n", r.Name(), h.ChunkID, h.Score)
	}
	// Output: raw_text_bm25 c2 0.713
}

func TestHybridExplain(t *testing.T) {
	builder := retrieval.NewBuilder(readCorpus(t), readVectorSource(t), retrieval.Options{EmbedModel: confModel})
	const question = "数学のテストの範囲はどこまで？"
	for _, name := range []string{"hybrid:embedding_text_bm25+embedding_text_vector@0.45", "rrf:summary_bm25+summary_vector", "zscore:raw_text_bm25+summary_vector@0.20"} {
		t.Run(name, func(t *testing.T) {
			r, err := builder.Build(name)
			if err != nil {
				t.Fatal(err)
			}
			h := r.(*retrieval.Hybrid)
			hits, err := h.Search(question, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				t.Fatal("no hits")
			}
			for _, hit := range hits {
				e, err := h.Explain(question, hit.ChunkID)
				if err != nil {
					t.Fatal(err)
				}
				if !near(e.Value, hit.Score, scoreTol) {
					t.Errorf("%s: Explain = %v, Search = %v", hit.ChunkID, e.Value, hit.Score)
				}
				if sum := e.Children[0].Value + e.Children[1].Value; !near(sum, e.Value, scoreTol) {
					t.Errorf("%s: parts sum to %v, root is %v", hit.ChunkID, sum, e.Value)
				}
			}
		})
	}
}

// TestPrepareBuildsEachComponentOnce runs Prepare and Build from several
// goroutines at once (run it with -race): every component is built once and
// shared, and the retrievers rank as ones built one by one.
func TestPrepareBuildsEachComponentOnce(t *testing.T) {
	names := []string{"hybrid:summary_bm25+summary_vector@0.50", "hybrid:raw_text_bm25+summary_vector@0.50", "summary_bm25", "raw_text_bm25"}
	specs, err := retrieval.ParseNames(names)
	if err != nil {
		t.Fatal(err)
	}
	newVectors := func() *memVectors {
		return &memVectors{ids: []string{"c1", "c2"}, dim: 2, data: []float32{1, 0, 0, 1}, queries: map[string][]float32{"数学": {1, 0}}}
	}
	vs := newVectors()
	b := retrieval.NewBuilder(smallCorpus(), vs, retrieval.Options{EmbedModel: "m", IndexDir: "-"})
	const goroutines = 4
	built := make([][]retrieval.Retriever, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			if err := b.Prepare(specs...); err != nil {
				t.Error(err)
				return
			}
			for _, name := range names {
				r, err := b.Build(name)
				if err != nil {
					t.Error(err)
					return
				}
				built[g] = append(built[g], r)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if n := vs.calls.Load(); n != 1 {
		t.Errorf("chunk vectors loaded %d times, want once", n)
	}
	for g := 1; g < goroutines; g++ {
		if built[g][2].(*retrieval.BM25).Index != built[0][2].(*retrieval.BM25).Index ||
			built[g][0].(*retrieval.Hybrid).Dense.Matrix != built[0][0].(*retrieval.Hybrid).Dense.Matrix {
			t.Errorf("goroutine %d got its own index or matrix", g)
		}
	}
	oneByOne := retrieval.NewBuilder(smallCorpus(), newVectors(), retrieval.Options{EmbedModel: "m", IndexDir: "-"})
	for i, name := range names {
		want, err := oneByOne.Build(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"数学", "京都の新幹線"} {
			if name != "summary_bm25" && name != "raw_text_bm25" && q != "数学" {
				continue // no query vector
			}
			got, err1 := built[0][i].Search(q, 2)
			exp, err2 := want.Search(q, 2)
			if err1 != nil || err2 != nil || fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Errorf("%s %q: prepared %v (%v), one by one %v (%v)", name, q, got, err1, exp, err2)
			}
		}
	}
}

// TestPrepareError returns the first failing component's error, and a
// later Build of it fails the same way instead of finding a half-built one.
func TestPrepareError(t *testing.T) {
	vs := &memVectors{ids: []string{"c1"}, dim: 2, data: []float32{1, 0}}
	b := retrieval.NewBuilder(smallCorpus(), vs, retrieval.Options{EmbedModel: "m", IndexDir: "-"})
	specs, err := retrieval.ParseNames([]string{"raw_text_bm25", "hybrid:raw_text_bm25+summary_vector@0.50"})
	if err != nil {
		t.Fatal(err)
	}
	const want = "1 of 2 chunks have no summary vector"
	if err := b.Prepare(specs...); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Prepare: err = %v, want one containing %q", err, want)
	}
	if _, err := b.Build("summary_vector"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Build after Prepare: err = %v, want one containing %q", err, want)
	}
	if n := vs.calls.Load(); n != 2 {
		t.Errorf("chunk vectors loaded %d times, want twice (a failed build is tried again)", n)
	}
	if _, err := b.Build("raw_text_bm25"); err != nil {
		t.Errorf("the component that built: %v", err)
	}
}
