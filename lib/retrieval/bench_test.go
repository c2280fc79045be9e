package retrieval_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/retrieval"
)

// paperScale builds a seeded synthetic corpus shaped like the paper's:
// 22,000 chunks of about 600 code points of kanji/katakana words (Zipf over
// 20,000 words) and particles, 1,536-dimensional Gaussian summary vectors and
// 100 questions with query vectors.
func paperScale(b *testing.B) (*retrieval.Builder, []string) {
	const n, d, nq = 22000, 1536, 100
	rng := rand.New(rand.NewPCG(22, 329))
	vocab := make([]string, 20000)
	for i := range vocab {
		var sb strings.Builder
		for range 2 + rng.IntN(3) {
			if i%3 == 0 {
				sb.WriteRune(rune(0x30A1 + rng.IntN(80)))
			} else {
				sb.WriteRune(rune(0x4E00 + rng.IntN(3000)))
			}
		}
		vocab[i] = sb.String()
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	particles := []string{"の", "は", "が", "を", "に", "で", "と", "だよ", "！", "？", "、", "。"}
	text := func(target int) string {
		var sb strings.Builder
		for sb.Len() < 3*target {
			sb.WriteString(vocab[zipf.Uint64()])
			sb.WriteString(particles[rng.IntN(len(particles))])
		}
		return sb.String()
	}
	vs := &memVectors{dim: d, queries: map[string][]float32{}}
	corpus := retrieval.Corpus{Summaries: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("%016x", rng.Uint64())
		corpus.Chunks = append(corpus.Chunks, chat.Chunk{ID: id, StartAt: fmt.Sprintf("2024-01-01T00:00:%02d", i%60), RawText: text(600)})
		vs.ids = append(vs.ids, id)
	}
	vs.data = make([]float32, n*d)
	for i := range vs.data {
		vs.data[i] = float32(rng.NormFloat64())
	}
	questions := make([]string, nq)
	for i := range questions {
		questions[i] = text(15)
		q := make([]float32, d)
		for j := range q {
			q[j] = float32(rng.NormFloat64())
		}
		vs.queries[questions[i]] = q
	}
	return retrieval.NewBuilder(corpus, vs, retrieval.Options{EmbedModel: "m"}), questions
}

// BenchmarkHybrid times the paper's best-style hybrid (raw_text BM25 + summary
// vectors) at paper scale: one question at a time (interactive search, top 5)
// and 100 questions batched (evaluation, top 200). Index and matrix are built
// before the timer starts; the build is reported once as build-s.
func BenchmarkHybrid(b *testing.B) {
	builder, questions := paperScale(b)
	t0 := time.Now()
	r, err := builder.Build("hybrid:raw_text_bm25+summary_vector@0.45")
	if err != nil {
		b.Fatal(err)
	}
	build := time.Since(t0)
	b.Run("single/k=5", func(b *testing.B) {
		var lat []time.Duration
		i := 0
		for b.Loop() {
			t := time.Now()
			if _, err := r.Search(questions[i%len(questions)], 5); err != nil {
				b.Fatal(err)
			}
			lat = append(lat, time.Since(t))
			i++
		}
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		b.ReportMetric(build.Seconds(), "build-s")
	})
	b.Run("batch/queries=100/k=200", func(b *testing.B) {
		for b.Loop() {
			if _, err := retrieval.SearchAll(r, questions, 200); err != nil {
				b.Fatal(err)
			}
		}
	})
}
