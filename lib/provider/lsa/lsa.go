// Package lsa is linemem's local embedder: latent semantic analysis
// (Deerwester et al., 1990) over TF-IDF weighted tokenizer terms, fitted on
// the corpus itself. It needs no network and no model download, so dense and
// hybrid retrieval work offline on any corpus. It is a classical baseline,
// not a neural embedding: it captures terms that co-occur across chunks
// (a query about 試験 can reach a chunk that only says テスト), but it knows
// nothing beyond the corpus it was fitted on.
//
// Fit, for n texts and the tokenizer's terms (default char-bigram):
//
//  1. Vocabulary: terms with document frequency df ≥ MinDF, the VocabSize most
//     frequent kept (ties by term, byte order). MinDF left at 0 is chosen
//     from the data: 1 when there are fewer documents than DefaultDimension
//     (a personal history of a few chunks, where most words occur once and
//     dropping them would leave many questions with no term at all), else
//     DefaultMinDF = 2.
//  2. Dimension: k left at 0 is chosen from the data, k = min(DefaultDimension,
//     n, V) for n documents and V vocabulary terms (the rank of A cannot
//     exceed min(n, V)), so the embedder works from one chunk up; an explicit
//     k above min(n, V) is an error. The chosen k and MinDF are in the model
//     name (…-d16-…-m1), so at paper scale (n, V ≥ 256) the name and every
//     vector are those of the fixed defaults.
//  3. Weights: w(t, d) = (1 + ln tf(t, d)) · idf(t), idf(t) = ln((1 + n)/(1 + df(t))) + 1,
//     each document row L2-normalised; A is the n × V matrix of rows.
//  4. Truncated SVD A ≈ U_k Σ_k V_kᵀ by the randomized range finder of Halko,
//     Martinsson and Tropp (2011, Alg. 4.4 + 5.1): a seeded Gaussian sketch
//     Ω (V × (k+p)), Y = AΩ, q power iterations Y ← A(Aᵀ Y) with
//     re-orthonormalisation (Householder QR) in between, Q = orth(Y),
//     Bᵀ = AᵀQ, then the eigen-decomposition BBᵀ = WΛWᵀ of the small
//     (k+p) × (k+p) Gram matrix gives Σ = Λ^½ and V_k = BᵀW_kΣ_k⁻¹. Each
//     column of V_k is signed so that its largest-magnitude entry is positive.
//     Exact SVD (gonum mat.SVD) of a 22k × 20k matrix is far too slow; the
//     sketch costs 2q + 2 sparse products.
//
// Embed(text) = normalise(x V_k), x the text's L2-normalised weight row: the
// projection onto the top-k right singular vectors. For a fitted document
// this equals its row of U_kΣ_k, the classic LSA document coordinates, so
// documents and queries fold in the same way and new chunks need no refit. The
// result is L2-normalised; a text with no vocabulary term gets the zero
// vector. Everything is deterministic for a given corpus, order and Options:
// the sparse products sum each output element in a fixed order whatever the
// number of cores.
//
// The fitted model serialises with MarshalBinary (vocabulary, idf, Σ, V_k as
// float32; ≈ 4·V·k bytes, 20 MB at the defaults) so queries embedded later use
// exactly the model the chunk vectors came from; refitting on the same texts
// in the same order gives the same bytes.
package lsa

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/tokenize/bigram"
)

// Name is the provider name in the registry.
const Name = "lsa"

// Defaults of Options.
const (
	DefaultTokenizer  = bigram.Name
	DefaultDimension  = 256
	DefaultVocabSize  = 20000
	DefaultSeed       = 1
	DefaultOversample = 16
	DefaultPowerIters = 2
	DefaultMinDF      = 2
)

// Options configure Fit. Zero values mean the defaults above; a zero
// Dimension or MinDF is chosen from the texts (see the package doc and
// Resolve).
type Options struct {
	Tokenizer  string // tokenize registry name
	Dimension  int    // k, the vector length; must not exceed min(documents, vocabulary)
	VocabSize  int    // most frequent terms kept
	Seed       uint64 // Gaussian sketch seed
	Oversample int    // p, extra sketch columns
	PowerIters int    // q, power iterations
	MinDF      int    // minimum document frequency of a vocabulary term
}

func (o Options) withDefaults() Options {
	o.Tokenizer = tokenize.Or(o.Tokenizer, DefaultTokenizer)
	if o.VocabSize == 0 {
		o.VocabSize = DefaultVocabSize
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Oversample == 0 {
		o.Oversample = DefaultOversample
	}
	if o.PowerIters == 0 {
		o.PowerIters = DefaultPowerIters
	}
	return o
}

// resolveMinDF is MinDF chosen for n documents when left at 0.
func (o Options) resolveMinDF(n int) int {
	if o.MinDF != 0 {
		return o.MinDF
	}
	if n < DefaultDimension {
		return 1
	}
	return DefaultMinDF
}

// ModelName encodes the options: lsa-{tokenizer}-d{k}-v{V}-s{seed}, with
// -p{p}, -q{q}, -m{minDF} appended when they differ from the defaults, and
// the tokenizer shortened (char-bigram → bigram, paper-regex → regex). A
// Dimension or MinDF still 0 is named by its paper-scale value
// (DefaultDimension, DefaultMinDF); Resolve gives the options a corpus
// actually fits with, and Model.Model the name of a fitted model.
func ModelName(o Options) string {
	o = o.withDefaults()
	if o.Dimension == 0 {
		o.Dimension = DefaultDimension
	}
	if o.MinDF == 0 {
		o.MinDF = DefaultMinDF
	}
	tok := strings.NewReplacer("char-bigram", "bigram", "paper-regex", "regex").Replace(o.Tokenizer)
	name := fmt.Sprintf("lsa-%s-d%d-v%d-s%d", tok, o.Dimension, o.VocabSize, o.Seed)
	if o.Oversample != DefaultOversample {
		name += fmt.Sprintf("-p%d", o.Oversample)
	}
	if o.PowerIters != DefaultPowerIters {
		name += fmt.Sprintf("-q%d", o.PowerIters)
	}
	if o.MinDF != DefaultMinDF {
		name += fmt.Sprintf("-m%d", o.MinDF)
	}
	return name
}

// Model is a fitted LSA model. It implements provider.Embedder and is safe
// for concurrent use.
type Model struct {
	opts   Options
	tok    tokenize.Tokenizer
	docs   int            // n, documents fitted on
	terms  []string       // vocabulary, by index
	index  map[string]int // term → index
	idf    []float64      // by index
	sigma  []float64      // k singular values, descending
	v      []float32      // V_k, V × k row-major
	params string         // "state_sha256=…", set once
}

// Fit fits a model on texts, choosing a zero Dimension or MinDF from them.
// It fails when there is no text or no vocabulary term, or when an explicit
// Dimension exceeds the number of documents or vocabulary terms.
func Fit(texts []string, opts Options) (*Model, error) {
	opts, counts, df, terms, err := resolve(texts, opts)
	if err != nil {
		return nil, err
	}
	tok, err := tokenize.New(opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	m := &Model{opts: opts, tok: tok, docs: len(texts), terms: terms}
	m.buildIndex()
	n := float64(len(texts))
	m.idf = make([]float64, len(m.terms))
	for j, term := range m.terms {
		m.idf[j] = math.Log((1+n)/(1+float64(df[term]))) + 1
	}
	a := newCSR(len(texts), len(m.terms))
	for _, c := range counts {
		a.appendRow(m.weights(c))
	}
	m.sigma, m.v = truncatedSVD(a, opts)
	if err := m.setParams(); err != nil {
		return nil, err
	}
	return m, nil
}

// Resolve returns opts with the defaults filled in and Dimension and MinDF
// chosen for texts as Fit chooses them, so that ModelName(Resolve(…)) is the
// name of the model Fit would return. Its errors are Fit's.
func Resolve(texts []string, opts Options) (Options, error) {
	o, _, _, _, err := resolve(texts, opts)
	return o, err
}

// resolve tokenizes texts once and returns the resolved options, the term
// counts of each text, the document frequencies and the vocabulary.
func resolve(texts []string, opts Options) (Options, []map[string]int, map[string]int, []string, error) {
	opts = opts.withDefaults()
	if opts.Dimension < 0 || opts.VocabSize < 1 || opts.Oversample < 0 || opts.PowerIters < 0 || opts.MinDF < 0 {
		return opts, nil, nil, nil, fmt.Errorf("lsa: invalid options %+v", opts)
	}
	if len(texts) == 0 {
		return opts, nil, nil, nil, errors.New("lsa: no texts to fit on")
	}
	tok, err := tokenize.New(opts.Tokenizer)
	if err != nil {
		return opts, nil, nil, nil, err
	}
	opts.MinDF = opts.resolveMinDF(len(texts))
	counts := make([]map[string]int, len(texts))
	df := map[string]int{}
	for i, t := range texts {
		c := map[string]int{}
		for _, term := range tok.Tokens(t) {
			c[term]++
		}
		for term := range c {
			df[term]++
		}
		counts[i] = c
	}
	var terms []string
	for term, f := range df {
		if f >= opts.MinDF {
			terms = append(terms, term)
		}
	}
	sort.Slice(terms, func(i, j int) bool {
		a, b := terms[i], terms[j]
		if df[a] != df[b] {
			return df[a] > df[b]
		}
		return a < b
	})
	if len(terms) > opts.VocabSize {
		terms = terms[:opts.VocabSize]
	}
	if len(terms) == 0 {
		return opts, nil, nil, nil, fmt.Errorf("lsa: the %d texts hold no %s term occurring in at least %d of them; nothing to fit", len(texts), opts.Tokenizer, opts.MinDF)
	}
	if opts.Dimension == 0 {
		opts.Dimension = min(DefaultDimension, len(texts), len(terms))
	}
	if k := opts.Dimension; k > len(terms) || k > len(texts) {
		return opts, nil, nil, nil, fmt.Errorf("lsa: dimension %d needs at least %d documents and vocabulary terms (df ≥ %d); have %d documents, %d terms (leave the dimension unset to choose it from the data)",
			k, k, opts.MinDF, len(texts), len(terms))
	}
	return opts, counts, df, terms, nil
}

func (m *Model) buildIndex() {
	m.index = make(map[string]int, len(m.terms))
	for j, t := range m.terms {
		m.index[t] = j
	}
}

// weights returns the sorted indices and L2-normalised weights of a term-count map.
func (m *Model) weights(counts map[string]int) ([]int32, []float64) {
	var idx []int32
	for term := range counts {
		if j, ok := m.index[term]; ok {
			idx = append(idx, int32(j))
		}
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	val := make([]float64, len(idx))
	norm := 0.0
	for i, j := range idx {
		w := (1 + math.Log(float64(counts[m.terms[j]]))) * m.idf[j]
		val[i] = w
		norm += w * w
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for i := range val {
			val[i] /= norm
		}
	}
	return idx, val
}

// Vector embeds one text (see the package documentation).
func (m *Model) Vector(text string) []float32 {
	counts := map[string]int{}
	for _, term := range m.tok.Tokens(text) {
		counts[term]++
	}
	idx, val := m.weights(counts)
	k := m.opts.Dimension
	acc := make([]float64, k)
	for i, j := range idx {
		row := m.v[int(j)*k : int(j+1)*k]
		w := val[i]
		for c, x := range row {
			acc[c] += w * float64(x)
		}
	}
	norm := 0.0
	for _, x := range acc {
		norm += x * x
	}
	out := make([]float32, k)
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for c, x := range acc {
		out[c] = float32(x / norm)
	}
	return out
}

// SingularValues returns Σ_k, descending.
func (m *Model) SingularValues() []float64 { return append([]float64(nil), m.sigma...) }

// Weights returns the text's L2-normalised TF-IDF row as a dense vector over
// Terms (the row A holds for a fitted document).
func (m *Model) Weights(text string) []float64 {
	counts := map[string]int{}
	for _, term := range m.tok.Tokens(text) {
		counts[term]++
	}
	idx, val := m.weights(counts)
	out := make([]float64, len(m.terms))
	for i, j := range idx {
		out[j] = val[i]
	}
	return out
}

// Terms returns the vocabulary in index order.
func (m *Model) Terms() []string { return append([]string(nil), m.terms...) }

// Options returns the options the model was fitted with, defaults filled in.
func (m *Model) Options() Options { return m.opts }

func (m *Model) Name() string   { return Name }
func (m *Model) Model() string  { return ModelName(m.opts) }
func (m *Model) Dimension() int { return m.opts.Dimension }
func (m *Model) Remote() bool   { return false }

// Params identifies the fitted state (a hash of MarshalBinary), so vectors
// from a model refitted on another corpus never share cache keys.
func (m *Model) Params() string { return m.params }

// Embed implements provider.Embedder.
func (m *Model) Embed(ctx context.Context, texts []string) (provider.EmbedResult, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return provider.EmbedResult{}, err
			}
		}
		out[i] = m.Vector(t)
	}
	return provider.EmbedResult{Vectors: out, Call: provider.Call{RequestedModel: m.Model(), ReturnedModel: m.Model(), Attempts: 1}}, nil
}

// State implements provider.Stateful.
func (m *Model) State() ([]byte, error) { return m.MarshalBinary() }

var errNoCorpus = errors.New("lsa: no fitted state and no corpus to fit on")

func init() {
	provider.RegisterEmbedder(Name, func(o provider.Options) (provider.Embedder, error) {
		opts := Options{Tokenizer: o.Tokenizer, Dimension: o.Dimensions, VocabSize: o.VocabSize, Seed: o.Seed}
		if o.State != nil {
			m, err := Unmarshal(o.State)
			if err != nil {
				return nil, err
			}
			if opts.Dimension == 0 {
				opts.Dimension = m.opts.Dimension
			}
			if opts.MinDF == 0 {
				opts.MinDF = m.opts.MinDF
			}
			if got, want := m.Model(), ModelName(opts); got != want {
				return nil, fmt.Errorf("lsa: stored model is %s, options ask for %s", got, want)
			}
			return m, nil
		}
		if o.Corpus == nil {
			return nil, errNoCorpus
		}
		return Fit(o.Corpus, opts)
	})
}
