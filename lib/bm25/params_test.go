package bm25_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

// termWith is term under parameters k1 and b.
func termWith(k1, b, df, f, dl float64) float64 {
	const n, avgdl = 4, 9.0 / 4
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	return idf * f * (k1 + 1) / (f + k1*(1-b+b*dl/avgdl))
}

// TestParams checks NewWith and OpenWith against the formula under other
// parameters, and that New and Open are spec §9's.
func TestParams(t *testing.T) {
	cases := []struct {
		name   string
		params bm25.Params
	}{
		{"spec", bm25.SpecParams()},
		{"everyday-like", bm25.Params{K1: 0.8, B: 0.75}},
		{"no length normalisation", bm25.Params{K1: 1.2, B: 0}},
		{"binary term frequency", bm25.Params{K1: 0, B: 0.75}},
		{"full length normalisation", bm25.Params{K1: 2, B: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k1, b := c.params.K1, c.params.B
			want := []ranking.Hit{
				{ChunkID: "d2", Score: 2 * termWith(k1, b, 2, 1, 2)}, // banana, cherry
				{ChunkID: "d3", Score: termWith(k1, b, 2, 3, 4)},     // cherry ×3
				{ChunkID: "d1", Score: termWith(k1, b, 2, 1, 3)},     // banana (at k1 = 0 a tie with d3, broken by the later StartAt)
			}
			built := bm25.NewWith(corpus, tokenizetest.Fields{}, c.params)
			if built.Params() != c.params {
				t.Errorf("Params() = %v, want %v", built.Params(), c.params)
			}
			assertHits(t, built.Search("banana cherry", 0), want)
			var buf bytes.Buffer
			if _, err := built.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			opened, err := bm25.OpenWith(buf.Bytes(), tokenizetest.Fields{}, c.params)
			if err != nil {
				t.Fatal(err)
			}
			assertHits(t, opened.Search("banana cherry", 0), want)
			if got, want := opened.Explain("banana cherry", "d3").String(), built.Explain("banana cherry", "d3").String(); got != want {
				t.Errorf("opened Explain = %s, want %s", got, want)
			}
		})
	}
	if got := bm25.New(corpus, tokenizetest.Fields{}).Params(); got != (bm25.Params{K1: bm25.K1, B: bm25.B}) {
		t.Errorf("New: Params() = %v, want spec §9's", got)
	}
}

// TestParamsOutOfRangePanic checks that Validate refuses parameters no
// BM25 has and NewWith panics on them (a caller's mistake), and that the
// bounds themselves are accepted.
func TestParamsOutOfRangePanic(t *testing.T) {
	for _, p := range []bm25.Params{{K1: 0, B: 0}, {K1: 0, B: 1}, bm25.SpecParams()} {
		if err := p.Validate(); err != nil {
			t.Errorf("Validate(%v) = %v, want nil", p, err)
		}
	}
	for _, p := range []bm25.Params{{K1: -0.1, B: 0.75}, {K1: 1.2, B: 1.5}, {K1: 1.2, B: -0.1}, {K1: math.NaN(), B: 0.5}, {K1: 1.2, B: math.NaN()}} {
		if p.Validate() == nil {
			t.Errorf("Validate(%v) = nil, want an error", p)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewWith(%v) did not panic", p)
				}
			}()
			bm25.NewWith(corpus, tokenizetest.Fields{}, p)
		}()
	}
}

// The same documents scored with spec §9's parameters and with the pair
// docs/everyday-search.md measured best on the development sets (and did
// not adopt).
func ExampleNewWith() {
	docs := []bm25.Doc{
		{ID: "repeats", StartAt: "2024-12-01T10:00:00", Text: "bonenkai bonenkai bonenkai bonenkai date"},
		{ID: "both", StartAt: "2024-12-02T10:00:00", Text: "bonenkai venue"},
		{ID: "other", StartAt: "2024-12-03T10:00:00", Text: "lunch"},
	}
	for _, p := range []bm25.Params{bm25.SpecParams(), {K1: 0.8, B: 0.5}} {
		ix := bm25.NewWith(docs, tokenizetest.Fields{}, p)
		fmt.Printf("%v:", p)
		for _, h := range ix.Search("bonenkai venue", 0) {
			fmt.Printf(" %s %.4f", h.ChunkID, h.Score)
		}
		fmt.Println()
	}
	// Output:
	// k1 = 1.2, b = 0.75: both 1.6161 repeats 0.6908
	// k1 = 0.8, b = 0.5: both 1.5362 repeats 0.6571
}
