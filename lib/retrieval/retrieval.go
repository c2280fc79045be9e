// Package retrieval turns retriever names (spec §9) into searchable
// retrievers over an in-memory corpus: BM25 over a representation
// (lib/bm25), dense search over stored vectors (lib/dense), fusions of the
// two (lib/fusion), and remedies for aggregate questions that reorder a base
// retriever's ranking (lib/diversify, lib/hierarchy). Chunks, summaries and
// vectors come from the caller (NewBuilder) or from a lib/store database
// (NewStoreBuilder), which is read only when an index is not on disk.
//
// A Builder caches what retrievers share: one BM25 index per
// (representation, tokenizer) and one vector matrix per (representation,
// model), so the paper's 126-configuration sweep builds each once, and keeps
// them in an index folder between processes (Options.IndexDir).
package retrieval

import (
	"fmt"
	"slices"
	"sync"

	"github.com/linemem/linemem/lib/internal/parallel"
	"github.com/linemem/linemem/lib/ranking"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/dense"
	"github.com/linemem/linemem/lib/diversify"
	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/hierarchy"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

// Retriever ranks chunks for a question. k ≤ 0 asks for every ranked chunk.
type Retriever interface {
	Name() string
	Search(query string, k int) ([]ranking.Hit, error)
}

// BatchSearcher is a Retriever that searches many questions at once faster
// than one by one (the vector retriever scores them as one matrix product).
type BatchSearcher interface {
	SearchBatch(queries []string, k int) ([][]ranking.Hit, error)
}

// SearchAll runs every query through r, batched when r is a BatchSearcher.
func SearchAll(r Retriever, queries []string, k int) ([][]ranking.Hit, error) {
	if b, ok := r.(BatchSearcher); ok {
		return b.SearchBatch(queries, k)
	}
	out := make([][]ranking.Hit, len(queries))
	for i, q := range queries {
		hits, err := r.Search(q, k)
		if err != nil {
			return nil, err
		}
		out[i] = hits
	}
	return out, nil
}

// Corpus is what retrievers search: the chunks and, for the summary and
// embedding_text representations, one summary per chunk ID.
type Corpus struct {
	Chunks    []chat.Chunk
	Summaries map[string]string
}

// VectorSource supplies stored embeddings; lib/store satisfies it.
type VectorSource interface {
	// ChunkVectors returns the vectors of representation rep under model:
	// len(ids) rows of dimension dim, row-major in data.
	ChunkVectors(rep, model string) (ids []string, dim int, data []float32, err error)
	// QueryVector returns the vector of a question (its text verbatim)
	// under model; ok is false when there is none.
	QueryVector(model, question string) (vec []float32, ok bool, err error)
}

// Options chooses what the names leave open.
type Options struct {
	Tokenizer  string // BM25 tokenizer name; "" means tokenize.Default (tokenize.Protocol)
	EmbedModel string // model of chunk and query vectors; needed by vector retrievers
	// IndexDir is a folder where BM25 indexes and vector matrices are kept
	// between processes (see derivedFormat), each under keys of what it is
	// built from, so a changed corpus never meets a stale index. "" takes
	// the store's DerivedDir (NewStoreBuilder), else the vector source's
	// when it is an IndexDirer; "-" keeps nothing.
	IndexDir string
	// BM25 are the parameters of every BM25 index built; the zero value
	// means spec §9's (bm25.SpecParams), the paper's.
	BM25 bm25.Params
}

// bm25Params returns Options.BM25, spec §9's when it is zero.
func (o Options) bm25Params() bm25.Params {
	if o.BM25 == (bm25.Params{}) {
		return bm25.SpecParams()
	}
	return o.BM25
}

// Builder builds retrievers by name over one corpus, sharing indexes and
// matrices between them. It is safe for concurrent use.
type Builder struct {
	vectors VectorSource
	opts    Options
	st      *store.Store // NewStoreBuilder: the corpus, its keys and the chunk vectors come from here

	mu     sync.Mutex
	corpus Corpus // read from st on first need when loaded is false
	loaded bool
	texts  map[string][]string             // by representation
	groups diversify.Group                 // chunk → source, for RemedyMMR
	units  *hierarchy.Index                // source-month units, for RemedyPeriod
	expand map[string]expand.QueryExpander // by expander name, for Multi

	// builtMu guards the maps below; each entry is built once, outside
	// the lock, so that different indexes and matrices build at once.
	builtMu  sync.Mutex
	indexes  map[[2]string]*pending[*bm25.Index]   // by (rep, tokenizer)
	matrices map[[2]string]*pending[*dense.Matrix] // by (rep, model)
}

// pending is a value being built once for concurrent callers: done is
// closed when val and err are set.
type pending[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// buildOnce returns the value of key in m, calling build for it only the
// first time: concurrent callers with the same key wait for that one build.
// A build that fails is forgotten once its waiters have its error, so that a
// later call tries again. mu guards m and is not held during build.
func buildOnce[K comparable, T any](mu *sync.Mutex, m map[K]*pending[T], key K, build func() (T, error)) (T, error) {
	mu.Lock()
	p, ok := m[key]
	if !ok {
		p = &pending[T]{done: make(chan struct{})}
		m[key] = p
	}
	mu.Unlock()
	if ok {
		<-p.done
		return p.val, p.err
	}
	p.val, p.err = build()
	if p.err != nil {
		mu.Lock()
		delete(m, key)
		mu.Unlock()
	}
	close(p.done)
	return p.val, p.err
}

// NewBuilder returns a Builder over c. vs may be nil when only BM25
// retrievers are built.
func NewBuilder(c Corpus, vs VectorSource, opts Options) *Builder {
	if d, ok := vs.(IndexDirer); ok && opts.IndexDir == "" {
		opts.IndexDir = d.DerivedDir()
	}
	b := newBuilder(vs, opts)
	b.corpus, b.loaded = c, true
	return b
}

// NewStoreBuilder returns a Builder over the corpus stored in st (its chunks,
// in source and chunk_index order, and its summaries), read only when a
// retriever needs it: a BM25 index or vector matrix kept in st's DerivedDir
// under the store's current ContentKey is opened without reading the corpus,
// so a fresh process can search at once. Chunk vectors come from st; vs
// supplies query vectors (nil: st's).
func NewStoreBuilder(st *store.Store, vs VectorSource, opts Options) *Builder {
	if opts.IndexDir == "" {
		opts.IndexDir = st.DerivedDir()
	}
	if vs == nil {
		vs = st
	}
	b := newBuilder(vs, opts)
	b.st = st
	return b
}

func newBuilder(vs VectorSource, opts Options) *Builder {
	opts.Tokenizer = tokenize.Protocol(opts.Tokenizer)
	if opts.IndexDir == "-" {
		opts.IndexDir = ""
	}
	return &Builder{
		vectors:  vs,
		opts:     opts,
		texts:    map[string][]string{},
		indexes:  map[[2]string]*pending[*bm25.Index]{},
		matrices: map[[2]string]*pending[*dense.Matrix]{},
	}
}

// corpusLocked returns the corpus, reading it from the store the first time;
// b.mu must be held.
func (b *Builder) corpusLocked() (Corpus, error) {
	if b.loaded {
		return b.corpus, nil
	}
	chunks, err := b.st.ChunksWithoutMembers()
	if err != nil {
		return Corpus{}, err
	}
	sums, err := b.st.Summaries()
	if err != nil {
		return Corpus{}, err
	}
	b.corpus, b.loaded = Corpus{Chunks: chunks, Summaries: sums}, true
	return b.corpus, nil
}

// Build returns the retriever called name (see ParseName). A single
// retriever is a *BM25 or a *Vector, a fused one a *Hybrid, one with a
// remedy a *Reranked.
func (b *Builder) Build(name string) (Retriever, error) {
	spec, err := ParseName(name)
	if err != nil {
		return nil, err
	}
	return b.BuildSpec(spec)
}

// BuildSpec is Build for a parsed name.
func (b *Builder) BuildSpec(s Spec) (Retriever, error) {
	if s.Remedy != "" {
		return b.remedy(s)
	}
	if s.Expander != "" {
		return b.multi(s)
	}
	if s.Fusion == "" {
		return b.single(s.Single)
	}
	sparse, err := b.bm25(s.BM25)
	if err != nil {
		return nil, err
	}
	vec, err := b.vector(s.Vector)
	if err != nil {
		return nil, err
	}
	return &Hybrid{name: s.String(), Sparse: sparse, Dense: vec, Fuser: s.Fuser()}, nil
}

func (b *Builder) single(s Single) (Retriever, error) {
	if s.Method == MethodBM25 {
		return b.bm25(s)
	}
	return b.vector(s)
}

func (b *Builder) bm25(s Single) (*BM25, error) {
	ix, err := buildOnce(&b.builtMu, b.indexes, [2]string{s.Rep, b.opts.Tokenizer}, func() (*bm25.Index, error) {
		tok, err := tokenize.New(b.opts.Tokenizer)
		if err != nil {
			return nil, err
		}
		return b.buildBM25(s.Rep, tok)
	})
	if err != nil {
		return nil, err
	}
	return &BM25{name: s.Name(), Index: ix}, nil
}

// Prepare builds every BM25 index and vector matrix that the retrievers of
// specs search, each distinct one in its own goroutine, so that reading one
// from the store overlaps building another; BuildSpec then finds them built.
// It returns the error of the first failing component in specs order.
func (b *Builder) Prepare(specs ...Spec) error {
	var parts []Single
	seen := map[Single]bool{}
	for _, s := range specs {
		for _, p := range []Single{s.Single, s.BM25, s.Vector} {
			if p != (Single{}) && !seen[p] {
				seen[p] = true
				parts = append(parts, p)
			}
		}
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { _, errs[i] = b.single(p) })
	}
	wg.Wait()
	return firstError(errs)
}

// firstError returns the first non-nil error of errs, or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// contentKinds are the kinds of stored content a representation's texts are
// made of.
func contentKinds(rep string) []string {
	if rep == represent.RawText {
		return []string{store.ContentChunks}
	}
	return []string{store.ContentChunks, store.ContentSummaries}
}

// buildBM25 opens the index of rep from the index folder, or builds it from
// the corpus and stores it there. A store Builder looks
// it up by the store's content key before reading the corpus; every Builder
// then looks it up by the hash of the texts.
func (b *Builder) buildBM25(rep string, tok tokenize.Tokenizer) (*bm25.Index, error) {
	dir := b.opts.IndexDir
	if dir != "" {
		defer lockDerived(bm25Path(dir, rep, tok.Name()))()
	}
	var content string
	if dir != "" && b.st != nil {
		// The key is read before the corpus: a write in between leaves the
		// index stamped with a key that is never current again.
		var err error
		if content, err = b.st.ContentKey(contentKinds(rep)...); err != nil {
			return nil, err
		}
		if ix := loadBM25(dir, rep, tok, b.opts.bm25Params(), keyContent, content); ix != nil {
			return ix, nil
		}
	}
	b.mu.Lock()
	texts, err := b.textsLocked(rep)
	chunks := b.corpus.Chunks
	b.mu.Unlock()
	if err != nil {
		return nil, err
	}
	docs := make([]bm25.Doc, len(texts))
	for i, c := range chunks {
		docs[i] = bm25.Doc{ID: c.ID, StartAt: c.StartAt, Text: texts[i]}
	}
	if dir == "" {
		return bm25.NewWith(docs, tok, b.opts.bm25Params()), nil
	}
	hash := bm25Key(tok.Name(), docs)
	ix := loadBM25(dir, rep, tok, b.opts.bm25Params(), keyTexts, hash)
	if ix != nil && content == "" {
		return ix, nil
	}
	if ix == nil {
		ix = bm25.NewWith(docs, tok, b.opts.bm25Params())
	}
	// Built, or found by its texts by a store Builder: store it with every
	// key known, so the next store Builder finds it by its content key.
	saveBM25(dir, rep, tok.Name(), keyPairs(keyContent, content, keyTexts, hash), ix)
	return ix, nil
}

// IndexDir returns the folder where the Builder keeps BM25 indexes and
// vector matrices, or "-" when it keeps none (Options.IndexDir), for a
// Builder over the same corpus with other options.
func (b *Builder) IndexDir() string {
	if b.opts.IndexDir == "" {
		return "-"
	}
	return b.opts.IndexDir
}

func (b *Builder) textsLocked(rep string) ([]string, error) {
	if t, ok := b.texts[rep]; ok {
		return t, nil
	}
	c, err := b.corpusLocked()
	if err != nil {
		return nil, err
	}
	t, err := represent.Texts(rep, c.Chunks, c.Summaries)
	if err != nil {
		return nil, err
	}
	b.texts[rep] = t
	return t, nil
}

func (b *Builder) vector(s Single) (*Vector, error) {
	model := b.opts.EmbedModel
	if model == "" {
		return nil, fmt.Errorf("%s: no embedding model chosen (--embed-model)", s.Name())
	}
	if b.vectors == nil {
		return nil, fmt.Errorf("%s: no vector source", s.Name())
	}
	m, err := buildOnce(&b.builtMu, b.matrices, [2]string{s.Rep, model}, func() (*dense.Matrix, error) {
		return b.buildMatrix(s, model)
	})
	if err != nil {
		return nil, err
	}
	return &Vector{name: s.Name(), model: model, Matrix: m, source: b.vectors}, nil
}

// buildMatrix opens the matrix of (s.Rep, model) from the index folder, or
// builds it from the stored vectors and stores it there.
// Either way the vectors must cover the corpus exactly. A store Builder
// takes the vectors and keys from the store and checks coverage against the
// stored chunk IDs, skipped when the file was checked against the current
// chunks; a Builder over a corpus in memory keeps matrices only for a vector
// source that is a ContentKeyer, and checks against its corpus.
func (b *Builder) buildMatrix(s Single, model string) (*dense.Matrix, error) {
	var keyer ContentKeyer
	source := b.vectors
	if b.st != nil {
		keyer, source = b.st, b.st
	} else if k, ok := b.vectors.(ContentKeyer); ok {
		keyer = k
	}
	dir := b.opts.IndexDir
	var vectorsKey, chunksKey string
	if dir != "" && keyer != nil {
		defer lockDerived(matrixPath(dir, s.Rep, model))()
		var err error
		if vectorsKey, err = keyer.ContentKey(store.ContentVectors); err != nil {
			return nil, err
		}
		if b.st != nil {
			if chunksKey, err = b.st.ContentKey(store.ContentChunks); err != nil {
				return nil, err
			}
		}
		if m, covers := loadMatrix(dir, s.Rep, model, vectorsKey); m != nil {
			if b.st != nil && covers == chunksKey {
				return m, nil
			}
			if err := b.checkCoverage(s, model, m.IDs()); err != nil {
				return nil, err
			}
			if b.st != nil {
				// Checked against the stored chunks now: say so in the
				// file, so the next process skips the check.
				saveMatrix(dir, s.Rep, model, keyPairs(keyVectors, vectorsKey, keyCovers, chunksKey), m)
			}
			return m, nil
		}
	}
	ids, dim, data, err := source.ChunkVectors(s.Rep, model)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	if err := b.checkCoverage(s, model, ids); err != nil {
		return nil, err
	}
	m, err := dense.NewMatrix(ids, dim, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	if vectorsKey != "" {
		saveMatrix(dir, s.Rep, model, keyPairs(keyVectors, vectorsKey, keyCovers, chunksKey), m)
	}
	return m, nil
}

// checkCoverage requires exactly one vector per corpus chunk. A store
// Builder compares with the stored chunk IDs (both in byte order), without
// the corpus; any other Builder's corpus is fixed when it is made.
func (b *Builder) checkCoverage(s Single, model string, ids []string) error {
	var chunkIDs []string
	if b.st != nil {
		var err error
		if chunkIDs, err = b.st.ChunkIDs(); err != nil {
			return err
		}
		if slices.Equal(ids, chunkIDs) {
			return nil
		}
	} else {
		for _, c := range b.corpus.Chunks {
			chunkIDs = append(chunkIDs, c.ID)
		}
	}
	inCorpus := make(map[string]bool, len(chunkIDs))
	for _, id := range chunkIDs {
		inCorpus[id] = true
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !inCorpus[id] {
			return fmt.Errorf("%s: model %q has a vector for chunk %s, which is not in the corpus", s.Name(), model, id)
		}
		if seen[id] {
			return fmt.Errorf("%s: model %q has two vectors for chunk %s", s.Name(), model, id)
		}
		seen[id] = true
	}
	if missing := len(chunkIDs) - len(seen); missing > 0 {
		return fmt.Errorf("%s: %d of %d chunks have no %s vector under model %q; embed or import them first", s.Name(), missing, len(chunkIDs), s.Rep, model)
	}
	return nil
}

// BM25 is a BM25 retriever over one representation.
type BM25 struct {
	name  string
	Index *bm25.Index
}

// Name returns "{rep}_bm25".
func (r *BM25) Name() string { return r.name }

// Tokenizer returns the index's tokenizer name, to record with results.
func (r *BM25) Tokenizer() string { return r.Index.Tokenizer().Name() }

// Search implements Retriever; it never fails.
func (r *BM25) Search(query string, k int) ([]ranking.Hit, error) {
	return r.Index.Search(query, k), nil
}

// SearchBatch searches the queries on all cores.
func (r *BM25) SearchBatch(queries []string, k int) ([][]ranking.Hit, error) {
	out := make([][]ranking.Hit, len(queries))
	parallel.For(len(queries), func(i int) { out[i] = r.Index.Search(queries[i], k) })
	return out, nil
}

// Explain breaks the score of chunkID for query into its terms; it never
// fails.
func (r *BM25) Explain(query, chunkID string) (ranking.Explanation, error) {
	return r.Index.Explain(query, chunkID), nil
}

// Vector is a dense retriever over one representation's vectors; questions
// are looked up as query vectors by their text verbatim.
type Vector struct {
	name   string
	model  string
	Matrix *dense.Matrix
	source VectorSource
}

// Name returns "{rep}_vector".
func (r *Vector) Name() string { return r.name }

// Model returns the embedding model name.
func (r *Vector) Model() string { return r.model }

// Search implements Retriever. A question without a query vector under the
// model, or with one of the wrong dimension, is an error naming it.
func (r *Vector) Search(query string, k int) ([]ranking.Hit, error) {
	q, err := r.queryVector(query)
	if err != nil {
		return nil, err
	}
	return r.Matrix.Search(q, k), nil
}

// SearchBatch looks up every query vector, then scores all queries as one
// matrix product.
func (r *Vector) SearchBatch(queries []string, k int) ([][]ranking.Hit, error) {
	qs := make([][]float32, len(queries))
	for i, query := range queries {
		q, err := r.queryVector(query)
		if err != nil {
			return nil, err
		}
		qs[i] = q
	}
	return r.Matrix.SearchBatch(qs, k), nil
}

func (r *Vector) queryVector(question string) ([]float32, error) {
	q, ok, err := r.source.QueryVector(r.model, question)
	if err != nil {
		return nil, fmt.Errorf("%s: query vector of %q: %w", r.name, question, err)
	}
	if !ok {
		return nil, fmt.Errorf("%s: no query vector for question %q under model %q; embed or import the questions first", r.name, question, r.model)
	}
	if len(q) != r.Matrix.Dim() {
		return nil, fmt.Errorf("%s: query vector of %q has dimension %d, chunk vectors have %d", r.name, question, len(q), r.Matrix.Dim())
	}
	return q, nil
}

// Hybrid fuses a BM25 and a vector retriever.
type Hybrid struct {
	name   string
	Sparse *BM25
	Dense  *Vector
	Fuser  fusion.Fuser
}

// Name returns the canonical fused name, e.g.
// "hybrid:embedding_text_bm25+embedding_text_vector@0.45".
func (h *Hybrid) Name() string { return h.name }

// Search implements Retriever: both components' top fusion.Depth, fused and
// cut to k by fusion.FuseTop (all fused candidates when k ≤ 0).
func (h *Hybrid) Search(query string, k int) ([]ranking.Hit, error) {
	sparse, err := h.Sparse.Search(query, fusion.Depth)
	if err != nil {
		return nil, err
	}
	vec, err := h.Dense.Search(query, fusion.Depth)
	if err != nil {
		return nil, err
	}
	return fusion.FuseTop(h.Fuser, sparse, vec, k), nil
}

// SearchBatch is Search for many queries, with the vector component batched.
func (h *Hybrid) SearchBatch(queries []string, k int) ([][]ranking.Hit, error) {
	sparse, vec, err := h.ComponentRuns(queries)
	if err != nil {
		return nil, err
	}
	out := make([][]ranking.Hit, len(queries))
	for i := range queries {
		out[i] = fusion.FuseTop(h.Fuser, sparse[i], vec[i], k)
	}
	return out, nil
}

// ComponentRuns returns each component's top fusion.Depth for every query,
// what fusion.FuseTop reads: a weight sweep searches them once per pairing
// and fuses them at every weight.
func (h *Hybrid) ComponentRuns(queries []string) (sparse, vec [][]ranking.Hit, err error) {
	if sparse, err = h.Sparse.SearchBatch(queries, fusion.Depth); err != nil {
		return nil, nil, err
	}
	if vec, err = h.Dense.SearchBatch(queries, fusion.Depth); err != nil {
		return nil, nil, err
	}
	return sparse, vec, nil
}
