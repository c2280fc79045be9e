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
//
// A response whose status is "incomplete" (the output limit was reached) is
// not stored as a summary: it is stored apart with its status
// (Store.PutIncompleteSummaries) and counted in Report.Incomplete, and later
// runs leave the chunk alone (Report.StoredIncomplete) unless Retry is set.
type Summaries struct {
	Store      Store
	Summarizer provider.Summarizer
	// Retry, when set, resends chunks with an incomplete summary to it (the
	// summarizer with a larger output budget) after the others.
	Retry provider.Summarizer
	Options

	retrying bool // this pass sends the chunks with an incomplete summary
}

// IncompleteStatus is the response status of a cut summary.
const IncompleteStatus = "incomplete"

// prepare lists the chunks to send: those with no summary, or, when
// retrying, those with an incomplete one. stored counts the others that have
// a summary; cut those with an incomplete summary left alone.
func (j Summaries) prepare(ctx context.Context) (total, stored, cut int, items []*item, err error) {
	chunks, err := j.Store.Chunks()
	if err != nil {
		return 0, 0, 0, nil, err
	}
	have, err := j.Store.Summaries()
	if err != nil {
		return 0, 0, 0, nil, err
	}
	incomplete, err := j.Store.IncompleteSummaries()
	if err != nil {
		return 0, 0, 0, nil, err
	}
	_, idBound := j.Summarizer.(provider.IDBound)
	var prepared []item
	for _, c := range chunks {
		if _, ok := have[c.ID]; ok {
			stored++
			continue
		}
		if _, ok := incomplete[c.ID]; ok != j.retrying {
			if ok {
				cut++
			}
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
	return len(chunks), stored, cut, items, err
}

// Plan reports what Run would do without sending anything: the chunks
// without a summary and, when Retry is set, the retry pass over those with
// an incomplete one (Plan.Resend), estimated at Retry's output budget.
func (j Summaries) Plan(ctx context.Context) (Plan, error) {
	p, cut, err := j.plan(ctx)
	if err != nil || j.Retry == nil || cut == 0 {
		p.Incomplete = cut
		return p, err
	}
	again := j
	again.Summarizer, again.retrying = j.Retry, true
	r, _, err := again.plan(ctx)
	if err != nil {
		return Plan{}, err
	}
	p.Incomplete, p.Resend = cut, r.Cached+r.ToSend
	p.Cached += r.Cached
	p.ToSend += r.ToSend
	p.Requests += r.Requests
	p.Chars += r.Chars
	p.InputTokens += r.InputTokens
	p.OutputTokens += r.OutputTokens
	p.Truncated += r.Truncated
	p.Redactions += r.Redactions
	return p, nil
}

// plan is one pass's Plan and the number of chunks with an incomplete
// summary that the pass leaves alone.
func (j Summaries) plan(ctx context.Context) (Plan, int, error) {
	total, stored, cut, items, err := j.prepare(ctx)
	if err != nil {
		return Plan{}, 0, err
	}
	perRequest, outPerRequest := 0, 0
	if s, ok := j.Summarizer.(interface{ Instructions() string }); ok {
		perRequest = provider.EstimateTokens(s.Instructions())
	}
	if s, ok := j.Summarizer.(interface{ MaxOutputTokens() int }); ok {
		outPerRequest = s.MaxOutputTokens()
	}
	return plan(total, stored, items, 0, perRequest, outPerRequest), cut, nil
}

// Run summarizes every chunk without a summary. It returns the report and,
// when the run stopped early, why: the context's error, the first failure
// under FailFast, or a store or cache error.
func (j Summaries) Run(ctx context.Context) (Report, error) {
	rep, err := j.run(ctx)
	if err != nil || j.Retry == nil || rep.StoredIncomplete == 0 {
		return rep, err
	}
	again := j
	again.Summarizer, again.retrying = j.Retry, true
	retried, err := again.run(ctx)
	rep.StoredIncomplete = 0
	rep.Done += retried.Done
	rep.Cached += retried.Cached
	rep.Failed = append(rep.Failed, retried.Failed...)
	rep.Incomplete += retried.Incomplete
	rep.Requests += retried.Requests
	rep.Attempts += retried.Attempts
	rep.Usage.InputTokens += retried.Usage.InputTokens
	rep.Usage.OutputTokens += retried.Usage.OutputTokens
	rep.Usage.TotalTokens += retried.Usage.TotalTokens
	rep.Interrupted = rep.Interrupted || retried.Interrupted
	rep.TookOver += retried.TookOver
	return rep, err
}

// run is one pass: the chunks without a summary, or, retrying, those with an
// incomplete one.
func (j Summaries) run(ctx context.Context) (Report, error) {
	rep := Report{What: "summaries"}
	total, stored, cut, items, err := j.prepare(ctx)
	if err != nil {
		return rep, err
	}
	rep.Total, rep.Stored, rep.StoredIncomplete = total, stored, cut
	prog := newProgress(j.Options, "summarize", total-stored-cut)
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
	call := cache.Call{Provider: j.Summarizer.Name(), Kind: cache.KindSummary, Params: j.Summarizer.Params(), BatchSize: 1, Call: res.Call}
	rep.Requests++
	rep.Attempts += res.Call.Attempts
	rep.Usage.InputTokens += res.Call.Usage.InputTokens
	rep.Usage.OutputTokens += res.Call.Usage.OutputTokens
	rep.Usage.TotalTokens += res.Call.Usage.TotalTokens
	prog.add(len(it.keys))
	if res.Call.Status == IncompleteStatus {
		// The call is recorded, not its output: a cut summary in the cache
		// would be served as a whole one.
		if err := j.Options.Cache.Put(detached(ctx), call, nil); err != nil {
			return err
		}
		rows := make([]store.IncompleteSummary, len(it.keys))
		for i, k := range it.keys {
			rows[i] = store.IncompleteSummary{ChunkID: k, Summary: res.Text, Origin: orig, Status: res.Call.Status}
		}
		if err := j.Store.PutIncompleteSummaries(rows); err != nil {
			return err
		}
		rep.Incomplete += len(it.keys)
		return nil
	}
	out := cache.Output{Key: it.key, Kind: cache.KindSummary, Item: it.keys[0], InputChars: utf8.RuneCountInString(it.input),
		Span: it.span, Redaction: j.Redactor.Describe(), Redacted: it.redacted, Text: res.Text}
	if err := j.Options.Cache.Put(detached(ctx), call, []cache.Output{out}); err != nil {
		return err
	}
	if err := j.Store.PutSummaries(summaryRows(it.keys, res.Text, orig)); err != nil {
		return err
	}
	rep.Done += len(it.keys)
	return nil
}
