package main

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

func init() {
	register(&command{
		name:    "search",
		summary: "search your chat memory: ranked conversation windows for a question",
		usage:   "--retriever NAME [--k N] QUESTION",
		run:     runSearch,
	})
}

// searchHitJSON is one result of `search --json`.
type searchHitJSON struct {
	Rank    int     `json:"rank"`
	ChunkID string  `json:"chunk_id"`
	Score   float64 `json:"score"`
	Source  string  `json:"source"`
	StartAt string  `json:"start_at"`
	EndAt   string  `json:"end_at"`
	RawText string  `json:"raw_text"`
	Explain string  `json:"explain,omitempty"`
}

type searchJSON struct {
	Retriever string          `json:"retriever"`
	Query     string          `json:"query"`
	Results   []searchHitJSON `json:"results"`
}

// previewLines is how many transcript lines the human-readable output shows
// per result.
const previewLines = 3

func runSearch(env *environment, args []string) error {
	c := commands["search"]
	var db, name string
	var k int
	var asJSON, explain bool
	var opts corpusOptions
	fs := newFlagSet(env, c, &db)
	fs.StringVar(&name, "retriever", "", "retriever `NAME` (spec §9 grammar, e.g. raw_text_bm25, hybrid:embedding_text_bm25+embedding_text_vector@0.45); default embedding_text_bm25 when every chunk has a summary, else raw_text_bm25")
	fs.IntVar(&k, "k", 5, "number of results")
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` (default: the only one stored)")
	fs.StringVar(&opts.tokenizer, "tokenizer", "", "BM25 `TOKENIZER` (default paper-regex)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.BoolVar(&explain, "explain", false, "break each BM25 score into its terms")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return fmt.Errorf("%w: a QUESTION is required", errUsage)
	}
	if k < 1 || k > memory.MaxK {
		return fmt.Errorf("%w: --k must be between 1 and %d, got %d", errUsage, memory.MaxK, k)
	}
	query := strings.Join(rest, " ")
	opened := time.Now()
	st, err := openExistingStore(db)
	if err != nil {
		return err
	}
	defer st.Close()
	if name == "" {
		if name, err = defaultRetriever(st); err != nil {
			return err
		}
	}
	vec, err := needsVectors([]string{name})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	model := opts.embedModel
	if model == "" && vec {
		if model, err = soleEmbedModel(st); err != nil {
			return err
		}
		opts.embedModel = model
	}
	builder, _, err := openBuilderWith(st, &queryEmbedding{Store: st, model: model}, opts, vec)
	if err != nil {
		return err
	}
	r, err := builder.Build(name)
	if err != nil {
		return err
	}
	chunks, err := st.Chunks()
	if err != nil {
		return err
	}
	byID := make(map[string]chat.Chunk, len(chunks))
	for _, ch := range chunks {
		byID[ch.ID] = ch
	}
	start := time.Now()
	loading := start.Sub(opened)
	hits, err := r.Search(query, k)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	doc := searchJSON{Retriever: r.Name(), Query: query, Results: []searchHitJSON{}}
	for i, h := range hits {
		ch := byID[h.ChunkID]
		item := searchHitJSON{Rank: i + 1, ChunkID: h.ChunkID, Score: h.Score, Source: ch.Source, StartAt: ch.StartAt, EndAt: ch.EndAt, RawText: ch.RawText}
		if explain {
			if item.Explain, err = explainHit(r, query, h.ChunkID); err != nil {
				return err
			}
		}
		doc.Results = append(doc.Results, item)
	}
	if asJSON {
		return writeJSON(env, doc)
	}
	if len(hits) == 0 {
		fmt.Fprintf(env.stdout, "no results for %q with %s\n", query, r.Name())
		return nil
	}
	fmt.Fprintf(env.stdout, "%s — %d results in %s (index and vectors loaded in %s)\n", r.Name(), len(hits), elapsed.Round(time.Microsecond), loading.Round(time.Millisecond))
	for _, item := range doc.Results {
		fmt.Fprintf(env.stdout, "\n#%d  %.4f  %s … %s  %s  (%s)\n", item.Rank, item.Score, item.StartAt, item.EndAt, item.Source, item.ChunkID)
		for _, line := range firstLines(item.RawText, previewLines) {
			fmt.Fprintf(env.stdout, "    %s\n", line)
		}
		if item.Explain != "" {
			for _, line := range strings.Split(strings.TrimRight(item.Explain, "\n"), "\n") {
				fmt.Fprintf(env.stdout, "    | %s\n", line)
			}
		}
	}
	return nil
}

// queryEmbedding serves stored query vectors and embeds any other question
// with the local model the chunk vectors came from, when its fitted state is
// stored (the lsa provider). A remote model is never called from search.
type queryEmbedding struct {
	*store.Store
	model  string
	loaded *lsa.Model
}

func (q *queryEmbedding) QueryVector(model, question string) ([]float32, bool, error) {
	if v, found, err := q.Store.QueryVector(model, question); err != nil || found {
		return v, found, err
	}
	if q.loaded == nil {
		c, err := cache.Open(q.Store.DB())
		if err != nil {
			return nil, false, err
		}
		state, found, err := c.State(context.Background(), lsa.Name, model)
		if err != nil {
			return nil, false, err
		}
		if !found {
			return nil, false, fmt.Errorf("no query vector for %q under model %s, and no local model to embed it with; embed it first (linemem embed --queries FILE) or search with a BM25 retriever", question, model)
		}
		if q.loaded, err = lsa.Unmarshal(state); err != nil {
			return nil, false, err
		}
	}
	return q.loaded.Vector(question), true, nil
}

// defaultRetriever is the paper's best single retriever, embedding_text_bm25,
// when every chunk has a summary, and raw_text_bm25 otherwise.
func defaultRetriever(st *store.Store) (string, error) {
	stats, err := st.Stats()
	if err != nil {
		return "", err
	}
	if stats.Chunks > 0 && stats.Summaries == stats.Chunks {
		return "embedding_text_bm25", nil
	}
	return "raw_text_bm25", nil
}

// explainHit breaks the score of chunkID into its parts: BM25 terms, or a
// hybrid's weighted components; a dense score is a plain cosine.
func explainHit(r retrieval.Retriever, query, chunkID string) (string, error) {
	switch v := r.(type) {
	case *retrieval.BM25:
		return v.Explain(query, chunkID).String(), nil
	case *retrieval.Hybrid:
		e, err := v.Explain(query, chunkID)
		if err != nil {
			return "", err
		}
		return e.String(), nil
	}
	return "", nil
}

// firstLines returns up to n lines of text, each cut to 120 code points.
func firstLines(text string, n int) []string {
	lines := strings.SplitN(text, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	for i, l := range lines {
		if utf8.RuneCountInString(l) > 120 {
			lines[i] = string([]rune(l)[:120]) + "…"
		}
	}
	return lines
}
