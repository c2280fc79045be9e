package bm25_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize"
)

// syntheticCorpus returns n chat-like documents of about chars code points:
// kanji and katakana words drawn from a Zipf-distributed vocabulary of 20,000
// words, hiragana particles between them and an occasional ASCII word, and
// queries built the same way. Seeded: the same n gives the same corpus.
func syntheticCorpus(n, chars, queries int) ([]bm25.Doc, []string) {
	rng := rand.New(rand.NewPCG(2026, uint64(n)))
	vocab := make([]string, 20000)
	for i := range vocab {
		var sb strings.Builder
		kanji := rng.IntN(3) > 0
		for range 2 + rng.IntN(3) {
			if kanji {
				sb.WriteRune(rune(0x4E00 + rng.IntN(3000)))
			} else {
				sb.WriteRune(rune(0x30A1 + rng.IntN(80)))
			}
		}
		vocab[i] = sb.String()
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	particles := []string{"の", "は", "が", "を", "に", "で", "と", "って", "だよ", "です", "！", "？", "、", "。", " "}
	text := func(target int) string {
		var sb strings.Builder
		for count := 0; count < target; {
			w := vocab[zipf.Uint64()]
			if rng.IntN(20) == 0 {
				w = fmt.Sprintf("v%d", rng.IntN(500))
			}
			p := particles[rng.IntN(len(particles))]
			sb.WriteString(w)
			sb.WriteString(p)
			count += len([]rune(w)) + len([]rune(p))
		}
		return sb.String()
	}
	docs := make([]bm25.Doc, n)
	for i := range docs {
		docs[i] = bm25.Doc{
			ID:      fmt.Sprintf("%016x", rng.Uint64()),
			StartAt: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour).Format("2006-01-02T15:04:05"),
			Text:    text(chars),
		}
	}
	qs := make([]string, queries)
	for i := range qs {
		qs[i] = text(20)
	}
	return docs, qs
}

// BenchmarkBuild indexes n documents of about 600 code points with the
// paper tokenizer; the paper's corpus has 22,329 chunks.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 5000, 22000} {
		docs, _ := syntheticCorpus(n, 600, 0)
		tok, _ := tokenize.New(tokenize.Default)
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			for b.Loop() {
				bm25.New(docs, tok)
			}
		})
	}
}

// BenchmarkSearch runs 100 questions against 22,000 documents and reports
// the per-query latency percentiles next to the time for all 100.
func BenchmarkSearch(b *testing.B) {
	docs, queries := syntheticCorpus(22000, 600, 100)
	tok, _ := tokenize.New(tokenize.Default)
	ix := bm25.New(docs, tok)
	for _, k := range []int{200, 0} {
		b.Run(fmt.Sprintf("100-queries/k=%d", k), func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				for _, q := range queries {
					t0 := time.Now()
					ix.Search(q, k)
					lat = append(lat, time.Since(t0))
				}
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// BenchmarkRead loads an index of n documents from WriteTo's bytes, what a
// process pays instead of BenchmarkBuild when the index is kept on disk.
func BenchmarkRead(b *testing.B) {
	for _, n := range []int{1000, 5000, 22000} {
		docs, _ := syntheticCorpus(n, 600, 0)
		tok, _ := tokenize.New(tokenize.Default)
		var buf bytes.Buffer
		if _, err := bm25.New(docs, tok).WriteTo(&buf); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			b.SetBytes(int64(buf.Len()))
			for b.Loop() {
				if _, err := bm25.Read(bytes.NewReader(buf.Bytes()), tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
