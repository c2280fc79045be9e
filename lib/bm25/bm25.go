// Package bm25 is an in-memory inverted index scored with Okapi BM25 exactly as
// spec §9 fixes it (Robertson and Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", 2009, with the non-negative IDF of Lucene):
//
//	IDF(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
//	score(q, d) = Σ over query tokens t, repeats included,
//	              IDF(t) · f(t,d)·(k1 + 1) / (f(t,d) + k1·(1 − b + b·|d|/avgdl))
//
// where N is the number of documents, df(t) the number containing t, f(t,d)
// the count of t in d, |d| the token count of d and avgdl the mean |d|.
// k1 and b are spec §9's K1 and B unless an index is built or opened with
// other Params (NewWith, OpenWith), as the everyday search measures others.
// Only documents holding at least one query token are returned, ordered by
// score desc, then StartAt desc, then ID desc (byte order). A query without
// tokens returns nothing.
package bm25

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
)

// BM25 parameters (spec §9; the common defaults of Robertson et al.).
const (
	// K1 saturates term frequency: the tf factor f(K1+1)/(f+K1·norm) tends
	// to K1+1 as f grows.
	K1 = 1.2
	// B is the strength of document-length normalisation: 0 ignores |d|,
	// 1 scales K1 fully by |d|/avgdl.
	B = 0.75
)

// Params are BM25's two free parameters, k1 and b of the score above.
type Params struct {
	K1 float64 // ≥ 0: the saturation of term frequency
	B  float64 // in [0, 1]: the strength of length normalisation
}

// SpecParams returns spec §9's parameters, K1 and B: those of the paper's
// protocol and of New and Open.
func SpecParams() Params { return Params{K1: K1, B: B} }

// String returns "k1 = K1, b = B".
func (p Params) String() string { return fmt.Sprintf("k1 = %g, b = %g", p.K1, p.B) }

// Validate returns an error unless k1 ≥ 0 and b is in [0, 1] (NaN is
// neither): the parameters a BM25 score is defined for.
func (p Params) Validate() error {
	if !(p.K1 >= 0) || !(p.B >= 0 && p.B <= 1) {
		return fmt.Errorf("k1 must be ≥ 0 and b in [0, 1], got %v", p)
	}
	return nil
}

// check panics when p is out of range (Validate): a caller's mistake, as
// parameters are constants or parsed and validated by the caller.
func (p Params) check() {
	if err := p.Validate(); err != nil {
		panic("bm25: " + err.Error())
	}
}

// Doc is one indexed document.
type Doc struct {
	ID      string // chunk ID, the final tie-break
	StartAt string // YYYY-MM-DDTHH:MM:SS, the second tie-break (later first)
	Text    string // the representation's text
}

// posting is one (document, term frequency) pair of a term's posting list.
type posting struct {
	doc int32
	tf  int32
}

// Index is an immutable BM25 index, safe for concurrent searches.
type Index struct {
	tok      tokenize.Tokenizer
	params   Params
	docs     []Doc
	lengths  []int32   // |d|
	lenNorm  []float64 // k1·(1 − b + b·|d|/avgdl)
	avgdl    float64
	terms    map[string]int32
	postings [][]posting // by term ID, ascending doc
	dict     *dict       // instead of terms and postings in an opened index (Open)

	accumulators sync.Pool // *[]float64 of len(docs), all zero: Search's scores, reused
}

// postingsOf returns term's postings, ascending doc; nil when no document
// holds the term.
func (ix *Index) postingsOf(term string) []posting {
	if ix.dict != nil {
		return ix.dict.lookup(term)
	}
	id, ok := ix.terms[term]
	if !ok {
		return nil
	}
	return ix.postings[id]
}

// New tokenizes docs with tok and indexes them, scored with spec §9's
// parameters. Tokenization runs on all cores; the index is the same
// whatever the number of cores. Duplicate IDs are not checked: the caller's
// IDs are used as given.
func New(docs []Doc, tok tokenize.Tokenizer) *Index {
	return NewWith(docs, tok, SpecParams())
}

// NewWith is New scored with parameters p. It panics when p.K1 < 0 or p.B
// is outside [0, 1].
func NewWith(docs []Doc, tok tokenize.Tokenizer, p Params) *Index {
	p.check()
	docs = slices.Clone(docs)
	counts, dicts := countTerms(docs, tok)
	ix := &Index{
		tok:     tok,
		params:  p,
		docs:    docs,
		lengths: make([]int32, len(docs)),
		lenNorm: make([]float64, len(docs)),
		terms:   map[string]int32{},
	}
	// Global term IDs in order of first occurrence (doc order), so the
	// index does not depend on which worker counted which document.
	xlat := make([][]int32, len(dicts))
	for w, d := range dicts {
		xlat[w] = make([]int32, len(d))
		for i := range xlat[w] {
			xlat[w][i] = -1
		}
	}
	var perTerm []int32 // postings per global term
	total := 0
	for d, c := range counts {
		ix.lengths[d] = int32(c.length)
		total += c.length
		tr := xlat[c.worker]
		for j, tc := range c.terms {
			id := tr[tc.term]
			if id < 0 {
				term := dicts[c.worker][tc.term]
				var ok bool
				if id, ok = ix.terms[term]; !ok {
					id = int32(len(perTerm))
					ix.terms[term] = id
					perTerm = append(perTerm, 0)
				}
				tr[tc.term] = id
			}
			c.terms[j].term = uint32(id)
			perTerm[id]++
		}
	}
	// One backing array for all posting lists, filled in doc order.
	nPost := 0
	for _, n := range perTerm {
		nPost += int(n)
	}
	backing := make([]posting, nPost)
	ix.postings = make([][]posting, len(perTerm))
	at := 0
	for id, n := range perTerm {
		ix.postings[id] = backing[at : at : at+int(n)]
		at += int(n)
	}
	for d, c := range counts {
		for _, tc := range c.terms {
			ix.postings[tc.term] = append(ix.postings[tc.term], posting{int32(d), tc.count})
		}
	}
	for i := range ix.docs {
		ix.docs[i].Text = "" // not read after indexing
	}
	if len(docs) > 0 {
		ix.avgdl = float64(total) / float64(len(docs))
	}
	ix.setLenNorm()
	return ix
}

// setLenNorm fills lenNorm from lengths and avgdl.
func (ix *Index) setLenNorm() {
	for d, n := range ix.lengths {
		ratio := 0.0
		if ix.avgdl > 0 {
			ratio = float64(n) / ix.avgdl
		}
		ix.lenNorm[d] = ix.params.K1 * (1 - ix.params.B + ix.params.B*ratio)
	}
}

// termCount is a term of a document with its count; term is an ID in the
// counting worker's dictionary, then (in New) a global term ID.
type termCount struct {
	term  uint32
	count int32
}

type docCounts struct {
	worker int         // whose dictionary the term IDs index
	length int         // |d|
	terms  []termCount // distinct terms in order of first occurrence
}

// countTerms tokenizes every document in parallel. Each worker keeps its
// own dictionary of terms (dicts[w][id]); a document's counts hold no
// strings, so the garbage collector need not scan them.
func countTerms(docs []Doc, tok tokenize.Tokenizer) ([]docCounts, [][]string) {
	out := make([]docCounts, len(docs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(docs)/64))
	dicts := make([][]string, workers)
	var next sync.Mutex
	cursor := 0
	const batch = 64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			ids := map[string]uint32{}
			var terms []string
			var slot []int32 // by worker term ID: index into the current document's terms, or -1
			for {
				next.Lock()
				lo := cursor
				cursor += batch
				next.Unlock()
				if lo >= len(docs) {
					dicts[w] = terms
					return
				}
				for d := lo; d < min(lo+batch, len(docs)); d++ {
					tokens := tok.Tokens(docs[d].Text)
					var counts []termCount
					for _, t := range tokens {
						id, ok := ids[t]
						if !ok {
							id = uint32(len(terms))
							ids[t] = id
							terms = append(terms, t)
							slot = append(slot, -1)
						}
						if i := slot[id]; i >= 0 {
							counts[i].count++
							continue
						}
						slot[id] = int32(len(counts))
						counts = append(counts, termCount{id, 1})
					}
					for _, c := range counts {
						slot[c.term] = -1
					}
					out[d] = docCounts{worker: w, length: len(tokens), terms: counts}
				}
			}
		})
	}
	wg.Wait()
	return out, dicts
}

// Len returns N, the number of documents.
func (ix *Index) Len() int { return len(ix.docs) }

// AvgDocLen returns avgdl, the mean token count (0 for an empty index).
func (ix *Index) AvgDocLen() float64 { return ix.avgdl }

// Params returns the parameters the index scores with.
func (ix *Index) Params() Params { return ix.params }

// Tokenizer returns the tokenizer used for documents and queries.
func (ix *Index) Tokenizer() tokenize.Tokenizer { return ix.tok }

// DocFreq returns df(term): how many documents contain the index term.
func (ix *Index) DocFreq(term string) int {
	return len(ix.postingsOf(term))
}

// IDF returns ln(1 + (N − df + 0.5)/(df + 0.5)) for the given N and df.
func IDF(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// termScore is one query token's contribution to a document's score.
func (ix *Index) termScore(idf float64, tf int32, lenNorm float64) float64 {
	f := float64(tf)
	return idf * f * (ix.params.K1 + 1) / (f + lenNorm)
}

// Search returns the k best documents for query (all matching documents when
// k ≤ 0), ordered by score desc, StartAt desc, ID desc. Scores are summed
// over the query tokens in query order (tokenize.QueryTokens: a
// tokenizer may repeat a question term by its field weight).
func (ix *Index) Search(query string, k int) []ranking.Hit {
	var (
		scores  []float64 // by doc, taken on the first known term, all zero
		touched []int32   // docs reached, first-touch order; every contribution is > 0 (IDF > 0, f ≥ 1), so score 0 means untouched
	)
	defer func() {
		if scores != nil {
			for _, d := range touched {
				scores[d] = 0
			}
			ix.accumulators.Put(&scores)
		}
	}()
	for _, t := range tokenize.QueryTokens(ix.tok, query) {
		list := ix.postingsOf(t)
		if list == nil {
			continue
		}
		if scores == nil {
			if p, ok := ix.accumulators.Get().(*[]float64); ok {
				scores = *p
			} else {
				scores = make([]float64, len(ix.docs))
			}
		}
		idf := IDF(len(ix.docs), len(list))
		for _, p := range list {
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			scores[p.doc] += ix.termScore(idf, p.tf, ix.lenNorm[p.doc])
		}
	}
	if len(touched) == 0 {
		return nil
	}
	ranked := make([]scored, len(touched))
	for i, d := range touched {
		ranked[i] = scored{d, scores[d]}
	}
	ranked = ix.top(ranked, k)
	hits := make([]ranking.Hit, len(ranked))
	for i, r := range ranked {
		hits[i] = ranking.Hit{ChunkID: ix.docs[r.doc].ID, Score: r.score}
	}
	return hits
}

type scored struct {
	doc   int32
	score float64
}

// compare orders a before b (negative) by score desc, StartAt desc, ID desc,
// then index order for duplicate IDs.
func (ix *Index) compare(a, b scored) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	da, db := &ix.docs[a.doc], &ix.docs[b.doc]
	if c := cmp.Compare(db.StartAt, da.StartAt); c != 0 {
		return c
	}
	if c := cmp.Compare(db.ID, da.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.doc, b.doc)
}

// top sorts the k best of all (all of them when k ≤ 0 or k ≥ len(all)).
func (ix *Index) top(all []scored, k int) []scored {
	if k <= 0 || k >= len(all) {
		slices.SortFunc(all, ix.compare)
		return all
	}
	h := &worstFirst{ix: ix, items: make([]scored, 0, k)}
	for _, s := range all {
		if len(h.items) < k {
			heap.Push(h, s)
		} else if ix.compare(s, h.items[0]) < 0 {
			h.items[0] = s
			heap.Fix(h, 0)
		}
	}
	slices.SortFunc(h.items, ix.compare)
	return h.items
}

// worstFirst is a heap whose root is the worst kept document.
type worstFirst struct {
	ix    *Index
	items []scored
}

func (h *worstFirst) Len() int           { return len(h.items) }
func (h *worstFirst) Less(i, j int) bool { return h.ix.compare(h.items[i], h.items[j]) > 0 }
func (h *worstFirst) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *worstFirst) Push(x any)         { h.items = append(h.items, x.(scored)) }
func (h *worstFirst) Pop() any {
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return last
}
