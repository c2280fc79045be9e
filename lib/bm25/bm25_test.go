package bm25_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize/paperregex"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

// tol is the score tolerance: the index and the formulas below evaluate the
// same expression, possibly reassociated.
const tol = 1e-12

// corpus: N = 4, |d| = 3, 2, 4, 0, avgdl = 9/4.
var corpus = []bm25.Doc{
	{ID: "d1", StartAt: "2024-01-01T00:00:00", Text: "apple banana apple"},
	{ID: "d2", StartAt: "2024-01-02T00:00:00", Text: "banana cherry"},
	{ID: "d3", StartAt: "2024-01-03T00:00:00", Text: "cherry cherry cherry durian"},
	{ID: "d4", StartAt: "2024-01-04T00:00:00", Text: ""},
}

// term is the BM25 contribution of a term with document frequency df and
// frequency f in a document of length dl, in the 4-document corpus.
func term(df, f, dl float64) float64 {
	const n, avgdl, k1, b = 4, 9.0 / 4, 1.2, 0.75
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	return idf * f * (k1 + 1) / (f + k1*(1-b+b*dl/avgdl))
}

func TestSearch(t *testing.T) {
	ix := bm25.New(corpus, tokenizetest.Fields{})
	cases := []struct {
		name  string
		query string
		k     int
		want  []ranking.Hit
	}{
		{"empty query", "", 0, nil},
		{"only unknown tokens", "mango kiwi", 0, nil},
		{"single term, df 1", "apple", 0, []ranking.Hit{{ChunkID: "d1", Score: term(1, 2, 3)}}},
		{"two terms, df 2 each", "banana cherry", 0, []ranking.Hit{
			{ChunkID: "d2", Score: term(2, 1, 2) + term(2, 1, 2)}, // banana, cherry
			{ChunkID: "d3", Score: term(2, 3, 4)},                 // cherry ×3
			{ChunkID: "d1", Score: term(2, 1, 3)},                 // banana
		}},
		{"repeated query token counts twice", "apple apple", 0, []ranking.Hit{{ChunkID: "d1", Score: 2 * term(1, 2, 3)}}},
		{"k cuts the ranking", "banana cherry", 1, []ranking.Hit{{ChunkID: "d2", Score: term(2, 1, 2) + term(2, 1, 2)}}},
		{"k beyond matches", "durian", 10, []ranking.Hit{{ChunkID: "d3", Score: term(1, 1, 4)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ix.Search(c.query, c.k)
			assertHits(t, got, c.want)
		})
	}
}

func TestSearchTies(t *testing.T) {
	docs := []bm25.Doc{
		{ID: "a", StartAt: "2024-01-01T00:00:00", Text: "x"},
		{ID: "c", StartAt: "2024-01-01T00:00:00", Text: "x"},
		{ID: "b", StartAt: "2024-01-02T00:00:00", Text: "x"},
		{ID: "z", StartAt: "2023-12-31T00:00:00", Text: "x"},
	}
	got := bm25.New(docs, tokenizetest.Fields{}).Search("x", 0)
	var ids []string
	for _, h := range got {
		ids = append(ids, h.ChunkID)
	}
	// equal scores: start_at desc, then chunk_id desc
	if want := []string{"b", "c", "a", "z"}; !slices.Equal(ids, want) {
		t.Errorf("tie order = %q, want %q", ids, want)
	}
	for k := 1; k <= len(docs); k++ {
		top := bm25.New(docs, tokenizetest.Fields{}).Search("x", k)
		if !slices.Equal(top, got[:k]) {
			t.Errorf("Search(k=%d) = %v, want prefix %v", k, top, got[:k])
		}
	}
}

func TestEmptyIndex(t *testing.T) {
	ix := bm25.New(nil, tokenizetest.Fields{})
	if got := ix.Search("apple", 0); len(got) != 0 {
		t.Errorf("Search on empty index = %v", got)
	}
	if ix.Len() != 0 || ix.AvgDocLen() != 0 {
		t.Errorf("Len, AvgDocLen = %d, %g; want 0, 0", ix.Len(), ix.AvgDocLen())
	}
}

func TestIndexStats(t *testing.T) {
	ix := bm25.New(corpus, tokenizetest.Fields{})
	if ix.Len() != 4 || math.Abs(ix.AvgDocLen()-9.0/4) > tol {
		t.Errorf("Len, AvgDocLen = %d, %g; want 4, 9/4", ix.Len(), ix.AvgDocLen())
	}
	for term, want := range map[string]int{"apple": 1, "banana": 2, "cherry": 2, "mango": 0} {
		if got := ix.DocFreq(term); got != want {
			t.Errorf("DocFreq(%q) = %d, want %d", term, got, want)
		}
	}
}

// TestTopKIsPrefix checks the heap selection against the full sort on a
// seeded random corpus with many tied scores.
func TestTopKIsPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	vocab := []string{"p", "q", "r", "s"}
	docs := make([]bm25.Doc, 300)
	for i := range docs {
		words := make([]string, 1+rng.IntN(3))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		docs[i] = bm25.Doc{ID: fmt.Sprintf("%04x", rng.IntN(1<<16)), StartAt: fmt.Sprintf("2024-01-%02dT00:00:00", 1+rng.IntN(3)), Text: strings.Join(words, " ")}
	}
	ix := bm25.New(docs, tokenizetest.Fields{})
	for _, q := range []string{"p", "q r", "s s p"} {
		all := ix.Search(q, 0)
		for _, k := range []int{1, 5, 50, len(all) - 1} {
			if got := ix.Search(q, k); !slices.Equal(got, all[:k]) {
				t.Errorf("query %q: Search(k=%d) is not the prefix of the full ranking", q, k)
			}
		}
	}
}

// TestBuildIndependentOfCores builds the same corpus on one core and on all.
func TestBuildIndependentOfCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	docs := make([]bm25.Doc, 2000)
	for i := range docs {
		docs[i] = bm25.Doc{ID: fmt.Sprint(i), Text: randomJapanese(rng, 80)}
	}
	many := bm25.New(docs, paperregex.New())
	prev := runtime.GOMAXPROCS(1)
	one := bm25.New(docs, paperregex.New())
	runtime.GOMAXPROCS(prev)
	for i := range 20 {
		q := docs[i*7].Text[:30]
		if a, b := many.Search(q, 0), one.Search(q, 0); !slices.Equal(a, b) {
			t.Fatalf("query %q: rankings differ between core counts", q)
		}
	}
}

func TestExplain(t *testing.T) {
	ix := bm25.New(corpus, tokenizetest.Fields{})
	t.Run("root equals search score", func(t *testing.T) {
		for _, h := range ix.Search("banana cherry cherry", 0) {
			e := ix.Explain("banana cherry cherry", h.ChunkID)
			if math.Abs(e.Value-h.Score) > tol {
				t.Errorf("%s: Explain = %g, Search = %g", h.ChunkID, e.Value, h.Score)
			}
			if len(e.Children) != 2 {
				t.Errorf("%s: %d children, want one per distinct query term (2)", h.ChunkID, len(e.Children))
			}
		}
	})
	t.Run("a repeated term is one child", func(t *testing.T) {
		e := ix.Explain("banana cherry cherry", "d2")
		cherry := e.Children[1]
		if want := 2 * term(2, 1, 2); math.Abs(cherry.Value-want) > tol || !strings.Contains(cherry.Message, `"cherry" ×2: 2 · IDF`) {
			t.Errorf("cherry: %g %q, want 2 × %g and ×2 in the message", cherry.Value, cherry.Message, term(2, 1, 2))
		}
		if banana := e.Children[0]; strings.Contains(banana.Message, "×") {
			t.Errorf("banana, once in the query: %q", banana.Message)
		}
		if !strings.Contains(e.Message, "3 query tokens, 2 distinct terms") {
			t.Errorf("root: %q", e.Message)
		}
	})
	t.Run("term parts", func(t *testing.T) {
		e := ix.Explain("apple", "d1")
		part := e.Children[0]
		idf, norm := math.Log(1+3.5/1.5), 1.2*(0.25+0.75*3/2.25)
		want := []float64{idf, 2, norm, 2 * 2.2 / (2 + norm)}
		for i, c := range part.Children {
			if math.Abs(c.Value-want[i]) > tol {
				t.Errorf("child %d (%s) = %g, want %g", i, c.Message, c.Value, want[i])
			}
		}
	})
	t.Run("a term of a named field", func(t *testing.T) {
		ix := bm25.New(corpus, fielded{})
		e := ix.Explain("cherry", "d2")
		if c := e.Children[0]; !strings.Contains(c.Message, `"cherry" (field f) ×2: 2 · IDF`) || math.Abs(c.Value-e.Value) > tol {
			t.Errorf("%q = %g of the root's %g", c.Message, c.Value, e.Value)
		}
	})
	t.Run("absent term contributes zero", func(t *testing.T) {
		e := ix.Explain("apple durian", "d2")
		if e.Value != 0 || len(e.Children) != 2 {
			t.Errorf("Explain = %v", e)
		}
	})
	t.Run("unknown document", func(t *testing.T) {
		e := ix.Explain("apple", "nope")
		if e.Value != 0 || !strings.Contains(e.Message, "not in the index") {
			t.Errorf("Explain(unknown) = %+v", e)
		}
	})
}

// fielded is tokenizetest.Fields whose questions weigh each term twice
// and whose term "cherry" is of a field named "field f".
type fielded struct{ tokenizetest.Fields }

func (fielded) QueryTokens(text string) []string {
	var out []string
	for _, t := range strings.Fields(text) {
		out = append(out, t, t)
	}
	return out
}

func (fielded) FieldName(term string) string {
	if term == "cherry" {
		return "field f"
	}
	return ""
}

func assertHits(t *testing.T, got, want []ranking.Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d hits %v, want %d %v", len(got), got, len(want), want)
	}
	for i := range got {
		if got[i].ChunkID != want[i].ChunkID || math.Abs(got[i].Score-want[i].Score) > tol {
			t.Errorf("rank %d: got %v, want %v", i+1, got[i], want[i])
		}
	}
}

// randomJapanese returns n code points drawn from kanji, katakana, hiragana,
// ASCII words and spaces, so paper-regex finds a mix of token kinds.
func randomJapanese(rng *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		switch rng.IntN(10) {
		case 0:
			sb.WriteByte(' ')
		case 1, 2:
			sb.WriteRune(rune(0x30A1 + rng.IntN(12)))
		case 3, 4, 5:
			sb.WriteRune(rune(0x4E00 + rng.IntN(40)))
		case 6:
			sb.WriteByte(byte('a' + rng.IntN(6)))
		default:
			sb.WriteRune(rune(0x3041 + rng.IntN(80)))
		}
	}
	return sb.String()
}

func ExampleIndex_Search() {
	docs := []bm25.Doc{
		{ID: "c1", StartAt: "2024-03-10T10:00:00", Text: "数学のテスト範囲は三角関数まで"},
		{ID: "c2", StartAt: "2024-03-11T09:00:00", Text: "明日のバイトは17時から"},
	}
	ix := bm25.New(docs, paperregex.New())
	for _, h := range ix.Search("数学のテスト範囲は？", 10) {
		fmt.Printf("%s %.4f\n", h.ChunkID, h.Score)
	}
	// Output: c1 1.9646
}

// TestRepeatedSearchesAreFresh: Search reuses its score accumulators, so
// searching one index many times, also concurrently, gives every query the
// ranking a fresh index gives it.
func TestRepeatedSearchesAreFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	vocab := []string{"p", "q", "r", "s", "t", "u"}
	docs := make([]bm25.Doc, 500)
	for i := range docs {
		words := make([]string, 1+rng.IntN(5))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		docs[i] = bm25.Doc{ID: fmt.Sprintf("%04d", i), Text: strings.Join(words, " ")}
	}
	queries := []string{"p", "q r", "s s p", "zzz", "t u p q", "r"}
	want := make([][]ranking.Hit, len(queries))
	for i, q := range queries {
		want[i] = bm25.New(docs, tokenizetest.Fields{}).Search(q, 0)
	}
	ix := bm25.New(docs, tokenizetest.Fields{})
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := true
			for round := range 20 {
				k := 10 * (round % 3) // 0 (every hit), 10, 20
				for i, q := range queries {
					w := want[i]
					if k > 0 {
						w = w[:min(k, len(w))]
					}
					ok = ok && slices.Equal(ix.Search(q, k), w)
				}
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Fatal("a repeated search differs from a fresh index's")
		}
	}
}
