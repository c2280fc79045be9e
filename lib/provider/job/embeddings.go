package job

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

// DefaultMaxBatch is the most inputs per embedding request when neither the
// job nor the embedder sets a lower limit: small enough that an interrupted
// request wastes little, large enough that request overhead stays small.
const DefaultMaxBatch = 256

// Embeddings embeds, under the embedder's model, either every chunk's
// representation Rep that has no vector yet, or (when Questions is non-nil)
// every question text without a query vector. The text sent is the
// (redacted) text capped by represent.CapInput at Cap code points; Cap is
// stored with each chunk vector.
type Embeddings struct {
	Store     Store
	Embedder  provider.Embedder
	Rep       string   // raw_text, summary or embedding_text; ignored for questions
	Questions []string // non-nil: embed these question texts verbatim instead of chunks
	Cap       int      // embedding input cap in code points; 0 = represent.DefaultEmbeddingCap
	MaxBatch  int      // inputs per request; 0 = DefaultMaxBatch (the embedder's limit still applies)
	Options
}

func (j Embeddings) what() string {
	if j.Questions != nil {
		return "query vectors"
	}
	return j.Rep + " vectors"
}

func (j Embeddings) inputCap() int {
	if j.Cap > 0 {
		return j.Cap
	}
	return represent.DefaultEmbeddingCap
}

// texts returns the keys and texts of the pending items and how many were
// already stored.
func (j Embeddings) texts() (keys, texts []string, total, stored int, err error) {
	model := j.Embedder.Model()
	if j.Questions != nil {
		seen := map[string]bool{}
		for _, q := range j.Questions {
			if seen[q] {
				continue
			}
			seen[q] = true
			total++
			vec, found, err := j.Store.QueryVector(model, q)
			if err != nil {
				return nil, nil, 0, 0, err
			}
			if d := j.Embedder.Dimension(); found && d != 0 && len(vec) != d {
				return nil, nil, 0, 0, fmt.Errorf("%w: stored query vectors of model %s have dimension %d, the embedder gives %d",
					provider.ErrDimensionChanged, model, len(vec), d)
			}
			if found {
				stored++
				continue
			}
			keys, texts = append(keys, q), append(texts, q)
		}
		return keys, texts, total, stored, nil
	}
	chunks, err := j.Store.Chunks()
	if err != nil {
		return nil, nil, 0, 0, err
	}
	var summaries map[string]string
	if j.Rep != represent.RawText {
		if summaries, err = j.Store.Summaries(); err != nil {
			return nil, nil, 0, 0, err
		}
	}
	all, err := represent.Texts(j.Rep, chunks, summaries)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	ids, dim, _, err := j.Store.ChunkVectors(j.Rep, model)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	if d := j.Embedder.Dimension(); dim != 0 && d != 0 && d != dim {
		return nil, nil, 0, 0, fmt.Errorf("%w: stored %s vectors of model %s have dimension %d, the embedder gives %d",
			provider.ErrDimensionChanged, j.Rep, model, dim, d)
	}
	have := make(map[string]bool, len(ids))
	for _, id := range ids {
		have[id] = true
	}
	for i, c := range chunks {
		if have[c.ID] {
			stored++
			continue
		}
		keys, texts = append(keys, c.ID), append(texts, all[i])
	}
	return keys, texts, len(chunks), stored, nil
}

func (j Embeddings) prepare(ctx context.Context) (total, stored int, items []*item, empty []string, err error) {
	keys, texts, total, stored, err := j.texts()
	if err != nil {
		return 0, 0, nil, nil, err
	}
	inCap := j.inputCap()
	var prepared []item
	for i, text := range texts {
		red, rep := j.Redactor.Redact(text)
		if red == "" {
			empty = append(empty, keys[i])
			continue
		}
		n := utf8.RuneCountInString(red)
		sent, cut := represent.CapInput(red, inCap)
		span := cache.Span{SourceChars: n, HeadEnd: n, TailStart: n, Cap: inCap}
		if cut {
			span.HeadEnd, span.TailStart = inCap/2, n-inCap/2
		}
		prepared = append(prepared, item{keys: []string{keys[i]}, input: sent, key: cache.NewKey(sent, j.Embedder),
			span: span, redacted: rep, truncated: cut})
	}
	items, err = collate(ctx, j.Options.Cache, prepared)
	return total, stored, items, empty, err
}

// Plan reports what Run would do without sending anything.
func (j Embeddings) Plan(ctx context.Context) (Plan, error) {
	total, stored, items, empty, err := j.prepare(ctx)
	if err != nil {
		return Plan{}, err
	}
	return plan(total, stored, items, len(empty), 0, 0), nil
}

func (j Embeddings) put(rows []store.VectorRow) error {
	if len(rows) == 0 {
		return nil
	}
	if j.Questions != nil {
		return j.Store.PutQueryVectors(j.Embedder.Model(), rows)
	}
	return j.Store.PutChunkVectors(j.Rep, j.Embedder.Model(), j.inputCap(), rows)
}

// Run embeds every pending item. It returns the report and, when the run
// stopped early, why: the context's error, the first failure under FailFast,
// a dimension change (which stops the run: every later vector would be
// rejected too), or a store or cache error.
func (j Embeddings) Run(ctx context.Context) (Report, error) {
	rep := Report{What: j.what()}
	total, stored, items, empty, err := j.prepare(ctx)
	if err != nil {
		return rep, err
	}
	rep.Total, rep.Stored = total, stored
	prog := newProgress(j.Options, "embed", total-stored)
	defer prog.finish()
	for _, k := range empty {
		rep.Failed = append(rep.Failed, Failure{Item: k, Reason: "empty text, nothing to embed"})
		prog.add(1)
	}
	if len(empty) > 0 && j.FailFast {
		return rep, fmt.Errorf("stopped at the first failure (--fail-fast): %s has an empty text", empty[0])
	}
	failures := j.newStreak()
	l := loop[store.VectorRow]{
		rows: func(keys []string, out *cache.Output) []store.VectorRow {
			return vectorRows(keys, out.Vector)
		},
		put:     j.put,
		batches: j.batches,
		send: func(batch []*item) error {
			return j.send(ctx, batch, &rep, prog, failures)
		},
	}
	err = l.run(ctx, j.Options.Cache, items, &rep, prog)
	return rep, err
}

func vectorRows(keys []string, vec []float32) []store.VectorRow {
	rows := make([]store.VectorRow, len(keys))
	for i, k := range keys {
		rows[i] = store.VectorRow{Key: k, Vector: vec}
	}
	return rows
}

// batches splits items in order so that no batch exceeds the input count or
// estimated token limits.
func (j Embeddings) batches(items []*item) [][]*item {
	maxInputs, maxTokens := j.MaxBatch, 0
	if maxInputs <= 0 {
		maxInputs = DefaultMaxBatch
	}
	if b, ok := j.Embedder.(provider.Batcher); ok {
		in, tok := b.BatchLimits()
		maxInputs, maxTokens = min(maxInputs, in), tok
	}
	var out [][]*item
	var cur []*item
	tokens := 0
	for _, it := range items {
		t := provider.EstimateTokens(it.input)
		if len(cur) > 0 && (len(cur) >= maxInputs || (maxTokens > 0 && tokens+t > maxTokens)) {
			out = append(out, cur)
			cur, tokens = nil, 0
		}
		cur = append(cur, it)
		tokens += t
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// send embeds one batch, splitting it on a permanent error.
func (j Embeddings) send(ctx context.Context, batch []*item, rep *Report, prog *progress, failures *streak) error {
	if err := ctx.Err(); err != nil {
		rep.Interrupted = true
		return err
	}
	texts := make([]string, len(batch))
	for i, it := range batch {
		texts[i] = it.input
	}
	res, err := j.Embedder.Embed(ctx, texts)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			rep.Interrupted = true
			return ctx.Err()
		case errors.Is(err, provider.ErrDimensionChanged):
			return err
		case !isCallError(err):
			return err
		case provider.IsPermanent(err) && !provider.IsUnreachable(err) && len(batch) > 1:
			half := len(batch) / 2
			if err := j.send(ctx, batch[:half], rep, prog, failures); err != nil {
				return err
			}
			return j.send(ctx, batch[half:], rep, prog, failures)
		}
		n := 0
		for _, it := range batch {
			for _, k := range it.keys {
				rep.Failed = append(rep.Failed, Failure{Item: k, Reason: failureReason(err)})
				n++
			}
		}
		prog.add(n)
		if j.FailFast {
			return fmt.Errorf("stopped at the first failure (--fail-fast): %w", err)
		}
		return failures.fail(err)
	}
	failures.ok()
	if len(res.Vectors) != len(batch) {
		return fmt.Errorf("embedder returned %d vectors for %d inputs", len(res.Vectors), len(batch))
	}
	outs := make([]cache.Output, len(batch))
	var rows []store.VectorRow
	for i, it := range batch {
		outs[i] = cache.Output{Key: it.key, Kind: cache.KindVector, Item: it.keys[0], InputChars: utf8.RuneCountInString(it.input),
			Span: it.span, Redaction: j.Redactor.Describe(), Redacted: it.redacted, Vector: res.Vectors[i]}
		rows = append(rows, vectorRows(it.keys, res.Vectors[i])...)
	}
	call := cache.Call{Provider: j.Embedder.Name(), Kind: cache.KindVector, Params: j.Embedder.Params(), BatchSize: len(batch), Call: res.Call}
	if err := j.Options.Cache.Put(detached(ctx), call, outs); err != nil {
		return err
	}
	if err := j.put(rows); err != nil {
		return err
	}
	rep.Done += len(rows)
	rep.Requests++
	rep.Attempts += res.Call.Attempts
	rep.Usage.InputTokens += res.Call.Usage.InputTokens
	rep.Usage.TotalTokens += res.Call.Usage.TotalTokens
	prog.add(len(rows))
	return nil
}
