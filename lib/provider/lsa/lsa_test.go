package lsa_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/tokenize/bigram"
)

// topics: five short chats on each of four subjects.
var topics = map[string][]string{
	"exam": {
		"数学のテストが難しかった。明日もテストがある",
		"試験前なのでテスト勉強をしている",
		"期末試験の範囲が広い。テストの点数が心配",
		"英語の試験の勉強を図書館でした",
		"試験が終わったら遊びに行こう。テストの結果待ち",
	},
	"food": {
		"駅前のラーメン屋が美味しかった。味噌ラーメンが好き",
		"ランチにラーメンを食べた。スープが濃い",
		"新しいカフェでパンケーキを食べた。美味しかった",
		"夕飯はカレーにしよう。カフェのカレーも美味しい",
		"ラーメンとカレーならどっちが好き？",
	},
	"sports": {
		"サッカーの試合は日曜日。練習がきつい",
		"部活の練習で走った。サッカー部の監督が厳しい",
		"野球の試合を見に行った。練習試合だった",
		"練習の後にサッカーの動画を見た",
		"日曜日の試合に勝った。練習の成果",
	},
	"movie": {
		"映画を見に行こう。新しいアニメ映画が公開される",
		"映画館でポップコーンを買った。映画が面白かった",
		"アニメの続きを見た。映画化されるらしい",
		"週末に映画を見る約束をした",
		"好きなアニメの映画のチケットを予約した",
	},
}

func corpus() (texts, labels []string) {
	for _, topic := range []string{"exam", "food", "sports", "movie"} {
		for _, t := range topics[topic] {
			texts, labels = append(texts, t), append(labels, topic)
		}
	}
	return texts, labels
}

func dot(a, b []float32) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestParaphraseQuery(t *testing.T) {
	texts, labels := corpus()
	m, err := lsa.Fit(texts, lsa.Options{Dimension: 4})
	if err != nil {
		t.Fatal(err)
	}
	const query = "試験勉強が大変"
	const target = 0 // "数学のテストが難しかった。…": shares no bigram with the query
	qTerms := map[string]bool{}
	for _, term := range bigram.New().Tokens(query) {
		qTerms[term] = true
	}
	for _, term := range bigram.New().Tokens(texts[target]) {
		if qTerms[term] {
			t.Fatalf("target shares term %q with the query; the test needs a paraphrase", term)
		}
	}
	q := m.Vector(query)
	scoreT := dot(q, m.Vector(texts[target]))
	for i, text := range texts {
		if labels[i] != "exam" {
			if s := dot(q, m.Vector(text)); s >= scoreT {
				t.Errorf("off-topic %q scores %.3f ≥ target %.3f", text, s, scoreT)
			}
		}
	}
}

func TestMatchesExactSVD(t *testing.T) {
	texts, _ := corpus()
	// Oversampling past the rank makes the sketch exact up to rounding.
	m, err := lsa.Fit(texts, lsa.Options{Dimension: 6, Oversample: 30, PowerIters: 1})
	if err != nil {
		t.Fatal(err)
	}
	terms := m.Terms()
	a := mat.NewDense(len(texts), len(terms), nil)
	for i, text := range texts {
		a.SetRow(i, m.Weights(text))
	}
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	want := svd.Values(nil)
	const tol = 1e-9 // both are backward-stable factorizations of the same matrix
	for i, got := range m.SingularValues() {
		if math.Abs(got-want[i]) > tol {
			t.Errorf("σ%d = %.12f, exact %.12f", i, got, want[i])
		}
	}
	// A fitted document's embedding is its normalised row of UΣ.
	var u mat.Dense
	svd.UTo(&u)
	for i := range texts {
		v := m.Vector(texts[i])
		ref := make([]float64, 6)
		norm := 0.0
		for c := range ref {
			ref[c] = u.At(i, c) * want[c]
			norm += ref[c] * ref[c]
		}
		for c := range ref {
			// Each singular vector's sign is arbitrary: compare magnitudes.
			if want := math.Abs(ref[c]) / math.Sqrt(norm); math.Abs(math.Abs(float64(v[c]))-want) > 1e-5 { // float32 output
				t.Errorf("doc %d component %d: |%g|, want %g", i, c, v[c], want)
			}
		}
	}
}

func TestDeterministicAndSerialisable(t *testing.T) {
	texts, _ := corpus()
	a, err := lsa.Fit(texts, lsa.Options{Dimension: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := lsa.Fit(texts, lsa.Options{Dimension: 5})
	ab, _ := a.MarshalBinary()
	bb, _ := b.MarshalBinary()
	if !bytes.Equal(ab, bb) {
		t.Fatal("two fits on the same texts differ")
	}
	prev := runtime.GOMAXPROCS(1)
	single, _ := lsa.Fit(texts, lsa.Options{Dimension: 5})
	runtime.GOMAXPROCS(max(prev, 3))
	multi, _ := lsa.Fit(texts, lsa.Options{Dimension: 5})
	runtime.GOMAXPROCS(prev)
	sb, _ := single.MarshalBinary()
	mb, _ := multi.MarshalBinary()
	if !bytes.Equal(sb, ab) || !bytes.Equal(mb, ab) {
		t.Error("the fit depends on the number of cores")
	}
	c, _ := lsa.Fit(texts, lsa.Options{Dimension: 5, Seed: 2})
	if c.Params() == a.Params() || c.Model() == a.Model() {
		t.Error("another seed gives the same params or model name")
	}
	r, err := lsa.Unmarshal(ab)
	if err != nil {
		t.Fatal(err)
	}
	if r.Params() != a.Params() || r.Model() != a.Model() || r.Dimension() != 5 {
		t.Errorf("restored %s %s %d", r.Model(), r.Params(), r.Dimension())
	}
	for _, text := range append(texts, "未知の単語だけ", "") {
		if fmt.Sprint(r.Vector(text)) != fmt.Sprint(a.Vector(text)) {
			t.Errorf("restored model embeds %q differently", text)
		}
	}
	for _, bad := range [][]byte{nil, []byte("nope"), ab[:len(ab)-3], append(append([]byte{}, ab...), 0)} {
		if _, err := lsa.Unmarshal(bad); err == nil {
			t.Errorf("Unmarshal accepted %d corrupt bytes", len(bad))
		}
	}
}

func TestDimensionAndVectors(t *testing.T) {
	texts, _ := corpus()
	if _, err := lsa.Fit(texts, lsa.Options{Dimension: 21}); err == nil || !strings.Contains(err.Error(), "20 documents") {
		t.Errorf("dimension above the document count: err = %v", err)
	}
	if _, err := lsa.Fit(nil, lsa.Options{Dimension: 1}); err == nil {
		t.Error("empty corpus accepted")
	}
	m, err := lsa.Fit(texts, lsa.Options{Dimension: 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.Embed(context.Background(), []string{texts[0], "ｘｙｚ全く無関係"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Vectors) != 2 || len(res.Vectors[0]) != 3 || m.Dimension() != 3 {
		t.Fatalf("vectors %v", res.Vectors)
	}
	if n := dot(res.Vectors[0], res.Vectors[0]); math.Abs(n-1) > 1e-6 {
		t.Errorf("|v|² = %v, want 1", n)
	}
	if fmt.Sprint(res.Vectors[1]) != "[0 0 0]" {
		t.Errorf("text without vocabulary terms: %v, want zero vector", res.Vectors[1])
	}
	if m.Remote() || m.Name() != "lsa" || res.Call.ReturnedModel != "lsa-bigram-d3-v20000-s1-m1" { // m1: fewer documents than DefaultDimension
		t.Errorf("name %s model %s remote %v", m.Name(), res.Call.ReturnedModel, m.Remote())
	}
}

func TestModelName(t *testing.T) {
	cases := map[string]lsa.Options{
		"lsa-bigram-d256-v20000-s1":         {},
		"lsa-kagome-d128-v5000-s7":          {Tokenizer: "kagome", Dimension: 128, VocabSize: 5000, Seed: 7},
		"lsa-regex-d256-v20000-s1-p8-q4-m3": {Tokenizer: "paper-regex", Oversample: 8, PowerIters: 4, MinDF: 3},
		"lsa-bigram-d256-v20000-s1-q1":      {PowerIters: 1},
	}
	for want, o := range cases {
		if got := lsa.ModelName(o); got != want {
			t.Errorf("ModelName(%+v) = %s, want %s", o, got, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	texts, _ := corpus()
	e, err := provider.NewEmbedder("lsa", provider.Options{Dimensions: 4, Corpus: texts})
	if err != nil {
		t.Fatal(err)
	}
	state, err := e.(provider.Stateful).State()
	if err != nil {
		t.Fatal(err)
	}
	r, err := provider.NewEmbedder("lsa", provider.Options{Dimensions: 4, State: state})
	if err != nil || r.Params() != e.Params() {
		t.Fatalf("restore: %v", err)
	}
	if _, err := provider.NewEmbedder("lsa", provider.Options{Dimensions: 8, State: state}); err == nil {
		t.Error("state of another model accepted")
	}
	if _, err := provider.NewEmbedder("lsa", provider.Options{}); err == nil {
		t.Error("no corpus and no state accepted")
	}
}

// chatCorpus makes n synthetic chat chunks of about 600 code points (the
// paper's mean raw_text length): timestamped lines whose words are drawn
// from a Zipf distribution over 3,000 two- and three-character words, with
// each chunk favouring one of 40 topics, so the bigram vocabulary is as
// varied as a real chat's and easily exceeds the 20,000-term cap.
func chatCorpus(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 0))
	words := make([]string, 3000)
	for i := range words {
		w := make([]rune, 2+rng.IntN(2))
		for j := range w {
			w[j] = rune(0x4E00 + rng.IntN(2500)) // common-range kanji
			if rng.IntN(3) == 0 {
				w[j] = rune(0x3041 + rng.IntN(83)) // hiragana
			}
		}
		words[i] = string(w)
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(seed, 1)), 1.1, 1, uint64(len(words)-1))
	var out []string
	for range n {
		topic := rng.IntN(40)
		var b strings.Builder
		chars := 0
		for chars < 600 {
			line := fmt.Sprintf("2024-01-%02d %02d:%02d A: ", 1+rng.IntN(28), rng.IntN(24), rng.IntN(60))
			for range 4 {
				w := words[zipf.Uint64()]
				if rng.IntN(3) == 0 {
					w = words[(topic*50+rng.IntN(50))%len(words)]
				}
				line += w
			}
			b.WriteString(line + "\n")
			chars += len([]rune(line)) + 1
		}
		out = append(out, b.String())
	}
	return out
}

func BenchmarkFit(b *testing.B) {
	for _, n := range []int{2000, 8000, 22000} {
		texts := chatCorpus(n, 1)
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := lsa.Fit(texts, lsa.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEmbedCorpus22000(b *testing.B) {
	texts := chatCorpus(22000, 1)
	m, err := lsa.Fit(texts, lsa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbed100Queries(b *testing.B) {
	m, err := lsa.Fit(chatCorpus(22000, 1), lsa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	queries := chatCorpus(100, 2)
	for i := range queries {
		queries[i] = queries[i][:60]
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Embed(context.Background(), queries); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleFit() {
	docs := []string{
		"数学のテストが難しかった",
		"明日は英語のテストと試験勉強",
		"試験の前にテスト範囲を確認",
		"駅前のラーメンが美味しかった",
		"ラーメンの後にカフェへ行った",
		"カフェのケーキが美味しかった",
	}
	m, err := lsa.Fit(docs, lsa.Options{Dimension: 2, MinDF: 1})
	if err != nil {
		panic(err)
	}
	q := m.Vector("試験が心配")
	best, bestScore := 0, math.Inf(-1)
	for i, d := range docs {
		if s := dot(q, m.Vector(d)); s > bestScore {
			best, bestScore = i, s
		}
	}
	fmt.Println(m.Model(), m.Dimension())
	fmt.Println(best < 3) // an exam chat, not a food one
	// Output:
	// lsa-bigram-d2-v20000-s1-m1 2
	// true
}
