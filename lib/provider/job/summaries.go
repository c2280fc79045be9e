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

// Summaries generates the summary of every chunk that has none. The text
// sent is represent.SummaryInput of the (redacted) raw_text: the user
// template, a blank line and the first 7,000 code points. Summaries are
// stored with origin "provider:model".
type Summaries struct {
	Store      Store
	Summarizer provider.Summarizer
	Options
}

func (j Summaries) prepare(ctx context.Context) (total, stored int, items []*item, err error) {
	chunks, err := j.Store.Chunks()
	if err != nil {
		return 0, 0, nil, err
	}
	have, err := j.Store.Summaries()
	if err != nil {
		return 0, 0, nil, err
	}
	_, idBound := j.Summarizer.(provider.IDBound)
	var prepared []item
	for _, c := range chunks {
		if _, ok := have[c.ID]; ok {
			stored++
			continue
		}
		raw, rep := j.Redactor.Redact(c.RawText)
		n := utf8.RuneCountInString(raw)
		cut := min(n, represent.SummaryInputChars)
		input := represent.SummaryInput(raw)
		keyInput := input
		if idBound {
			keyInput = c.ID + "\x1f" + input
		}
		prepared = append(prepared, item{
			keys:      []string{c.ID},
			input:     input,
			key:       cache.NewKey(keyInput, j.Summarizer),
			span:      cache.Span{SourceChars: n, HeadEnd: cut, TailStart: cut},
			redacted:  rep,
			truncated: cut < n,
		})
	}
	items, err = collate(ctx, j.Options.Cache, prepared)
	return len(chunks), stored, items, err
}

// Plan reports what Run would do without sending anything.
func (j Summaries) Plan(ctx context.Context) (Plan, error) {
	total, stored, items, err := j.prepare(ctx)
	if err != nil {
		return Plan{}, err
	}
	perRequest, outPerRequest := 0, 0
	if s, ok := j.Summarizer.(interface{ Instructions() string }); ok {
		perRequest = provider.EstimateTokens(s.Instructions())
	}
	if s, ok := j.Summarizer.(interface{ MaxOutputTokens() int }); ok {
		outPerRequest = s.MaxOutputTokens()
	}
	return plan(total, stored, items, 0, perRequest, outPerRequest), nil
}

// Run summarizes every chunk without a summary. It returns the report and,
// when the run stopped early, why: the context's error, the first failure
// under FailFast, or a store or cache error.
func (j Summaries) Run(ctx context.Context) (Report, error) {
	rep := Report{What: "summaries"}
	total, stored, items, err := j.prepare(ctx)
	if err != nil {
		return rep, err
	}
	rep.Total, rep.Stored = total, stored
	prog := newProgress(j.Options, "summarize", total-stored)
	defer prog.finish()
	orig := origin(j.Summarizer)
	failures := j.newStreak()
	l := loop[store.SummaryRow]{
		rows: func(keys []string, out *cache.Output) []store.SummaryRow {
			return summaryRows(keys, out.Text, orig)
		},
		put:     j.Store.PutSummaries,
		batches: oneByOne,
		send: func(batch []*item) error {
			return j.summarize(ctx, batch[0], orig, &rep, prog, failures)
		},
	}
	err = l.run(ctx, j.Options.Cache, items, &rep, prog)
	return rep, err
}

func summaryRows(keys []string, summary, orig string) []store.SummaryRow {
	rows := make([]store.SummaryRow, len(keys))
	for i, k := range keys {
		rows[i] = store.SummaryRow{ChunkID: k, Summary: summary, Origin: orig}
	}
	return rows
}

// summarize sends one item this run holds the claim for and stores the
// result; a call error is recorded as a failure unless FailFast.
func (j Summaries) summarize(ctx context.Context, it *item, orig string, rep *Report, prog *progress, failures *streak) error {
	res, err := j.Summarizer.Summarize(ctx, provider.SummaryRequest{ID: it.keys[0], Input: it.input})
	if err != nil {
		if ctx.Err() != nil {
			rep.Interrupted = true
			return ctx.Err()
		}
		if !isCallError(err) {
			return err
		}
		for _, k := range it.keys {
			rep.Failed = append(rep.Failed, Failure{Item: k, Reason: failureReason(err)})
		}
		prog.add(len(it.keys))
		if j.FailFast {
			return fmt.Errorf("stopped at the first failure (--fail-fast): %w", err)
		}
		return failures.fail(err)
	}
	failures.ok()
	if res.Text == "" {
		return errors.New("summarizer returned an empty summary without an error")
	}
	out := cache.Output{Key: it.key, Kind: cache.KindSummary, Item: it.keys[0], InputChars: utf8.RuneCountInString(it.input),
		Span: it.span, Redaction: j.Redactor.Describe(), Redacted: it.redacted, Text: res.Text}
	call := cache.Call{Provider: j.Summarizer.Name(), Kind: cache.KindSummary, Params: j.Summarizer.Params(), BatchSize: 1, Call: res.Call}
	if err := j.Options.Cache.Put(detached(ctx), call, []cache.Output{out}); err != nil {
		return err
	}
	if err := j.Store.PutSummaries(summaryRows(it.keys, res.Text, orig)); err != nil {
		return err
	}
	rep.Done += len(it.keys)
	rep.Requests++
	rep.Attempts += res.Call.Attempts
	rep.Usage.InputTokens += res.Call.Usage.InputTokens
	rep.Usage.OutputTokens += res.Call.Usage.OutputTokens
	rep.Usage.TotalTokens += res.Call.Usage.TotalTokens
	prog.add(len(it.keys))
	return nil
}
