package experiment_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// randomVectors is a retrieval.VectorSource of seeded random vectors, one
// set per representation.
type randomVectors struct {
	ids     []string
	dim     int
	chunk   map[string][]float32 // by representation, row-major
	queries map[string][]float32
}

func (v randomVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	return v.ids, v.dim, v.chunk[rep], nil
}

func (v randomVectors) QueryVector(model, q string) ([]float32, bool, error) {
	vec, ok := v.queries[q]
	return vec, ok, nil
}

// largeFixture is a seeded corpus of n chunks over a small vocabulary (so
// BM25 scores tie often) with 8-d vectors whose components take few values
// (so dense scores tie too), and 30 questions with random qrels; some chunk
// texts and vectors repeat outright.
func largeFixture(n int) (func() *retrieval.Builder, []questions.Question, ranking.Qrels) {
	r := rand.New(rand.NewPCG(7, 8))
	vocab := strings.Fields("東京 京都 新幹線 切符 数学 テスト 範囲 展望台 チケット 映画 バイト 部活 旅行 誕生日 プレゼント")
	words := func(k int) string {
		var w []string
		for range k {
			w = append(w, vocab[r.IntN(len(vocab))])
		}
		return strings.Join(w, " ")
	}
	const dim = 8
	vec := func() []float32 {
		out := make([]float32, dim)
		for j := range out {
			out[j] = float32(r.IntN(3) - 1)
		}
		return out
	}
	var chunks []chat.Chunk
	sums := map[string]string{}
	vs := randomVectors{dim: dim, chunk: map[string][]float32{}, queries: map[string][]float32{}}
	for i := range n {
		id := fmt.Sprintf("c%04d", i)
		chunks = append(chunks, chat.Chunk{ID: id, Source: "s.json", Index: i, StartAt: fmt.Sprintf("2024-01-01T%02d:00:00", i%24), RawText: words(3 + r.IntN(6))})
		sums[id] = words(2 + r.IntN(4))
		vs.ids = append(vs.ids, id)
		for _, rep := range []string{"raw_text", "summary", "embedding_text"} {
			vs.chunk[rep] = append(vs.chunk[rep], vec()...)
		}
	}
	var qs []questions.Question
	qrels := ranking.Qrels{}
	for i := range 30 {
		q := questions.Question{QID: fmt.Sprintf("q%02d", i), Question: fmt.Sprintf("%s %d", words(2), i), Type: questions.Types[i%len(questions.Types)]}
		qs = append(qs, q)
		vs.queries[q.Question] = vec()
		qrels[q.QID] = map[string]int{}
		for range 1 + r.IntN(4) {
			qrels[q.QID][vs.ids[r.IntN(n)]] = 1 + r.IntN(2)
		}
	}
	build := func() *retrieval.Builder {
		return retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, vs, retrieval.Options{EmbedModel: "m", IndexDir: "-"})
	}
	return build, qs, qrels
}

// TestSharedRunsAreFreshSearches: a Setup shares single retrievers' lists
// between evaluations and sweeps; every run it returns equals the run a
// fresh Builder's search gives, in any order of requests.
func TestSharedRunsAreFreshSearches(t *testing.T) {
	build, qs, qrels := largeFixture(250)
	s := experiment.NewSetup(qs, qrels, build())
	s.Protocol.B = 10
	if _, err := s.Sweep(nil, nil); err != nil {
		t.Fatal(err)
	}
	names := []string{
		"hybrid:summary_bm25+summary_vector@0.50", "summary_vector", "summary_bm25", "raw_text_bm25",
		"hybrid:embedding_text_bm25+embedding_text_vector@0.45", "embedding_text_vector",
		"rrf:raw_text_bm25+summary_vector", "zscore:embedding_text_bm25+raw_text_vector@0.30",
		"mmr:hybrid:summary_bm25+summary_vector@0.50@0.70",
	}
	for _, depth := range []int{0, 7, 200, 1000} {
		for _, name := range names {
			got, err := s.Run(name, depth)
			if err != nil {
				t.Fatal(err)
			}
			r, err := build().Build(name)
			if err != nil {
				t.Fatal(err)
			}
			k := depth
			if k == 0 {
				k = s.Protocol.RunDepth
			}
			lists, err := retrieval.SearchAll(r, s.QueryTexts(), k)
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range qs {
				if !reflect.DeepEqual(got[q.QID], lists[i]) {
					t.Fatalf("%s, depth %d, %s: shared run differs from a fresh search", name, depth, q.QID)
				}
			}
		}
	}
}

// TestSweepScoresAreThoseOfTheFullRuns: a configuration scored on its top K
// (the deepest metric cutoff) scores as its full fused run does, for every
// fusion rule and for a protocol whose metrics read deeper than 5.
func TestSweepScoresAreThoseOfTheFullRuns(t *testing.T) {
	build, qs, qrels := largeFixture(250)
	for _, ms := range [][]string{nil, {metrics.Recall5, "ndcg@10", "mrr@50", "recall@300"}} {
		s := experiment.NewSetup(qs, qrels, build())
		if ms != nil {
			s.Protocol.Metrics = ms
		}
		for _, kind := range []string{retrieval.FusionLinear, retrieval.FusionZScore, retrieval.FusionRRF} {
			w, err := s.SweepFusion(kind, nil, []float64{0, 0.3, 0.45, 0.5, 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range w.Configs {
				want, err := metrics.Evaluate(qs, qrels, w.FusedRun(c), s.Protocol.Metrics)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(c.Result, want) {
					t.Fatalf("metrics %v, %s: sweep scores differ from those of the full run", s.Protocol.Metrics, c.Name)
				}
			}
		}
	}
}
