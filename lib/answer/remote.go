package answer

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/tokenize"
)

// DefaultMaxOutputTokens bounds the length of a generated answer.
const DefaultMaxOutputTokens = 400

// SupportMessages is the most messages a generated citation names per chunk.
const SupportMessages = 2

// ErrRemoteNotAllowed is returned, before anything is sent, when a remote
// generator would be called without permission.
var ErrRemoteNotAllowed = errors.New("remote generator not allowed")

// Generator writes text from instructions and one input string:
// lib/provider's Summarizer interface, whose openai implementation calls the
// Responses API. It must have been configured with Instructions.
type Generator = provider.Summarizer

// Remote answers with a generator, through the cache.
type Remote struct {
	Gen         Generator
	Cache       *cache.Cache       // nil = no cache (every answer is generated)
	Redactor    *redact.Redactor   // nil = nothing redacted
	InputCap    int                // code points; ≤ 0 = DefaultInputCap
	AllowRemote bool               // without it a remote Gen is never called
	Tokenizer   tokenize.Tokenizer // picks the supporting messages of a citation; nil = none named
	// BeforeSend, when set, is called with the prompt and its destination
	// just before a request leaves (not for cache hits).
	BeforeSend func(p Prompt, destination string)
	// Me is the sender name of the person asking (`ask --me`); "" leaves
	// the prompt's rule that 「自分」 is the asker.
	Me string
}

// Name is the generator's provider name.
func (r *Remote) Name() string { return r.Gen.Name() }

// Model is the generator's requested model.
func (r *Remote) Model() string { return r.Gen.Model() }

// Destination is where requests go: the endpoint of a remote generator, or
// "this machine".
func (r *Remote) Destination() string {
	if e, ok := r.Gen.(provider.Endpointer); ok {
		return e.Endpoint()
	}
	if r.Gen.Remote() {
		return "a remote service"
	}
	return "this machine"
}

// Prompt builds the prompt Answer would send.
func (r *Remote) Prompt(question string, chunks []memory.Result) (Prompt, error) {
	if g, ok := r.Gen.(interface{ Instructions() string }); ok && g.Instructions() != Instructions {
		return Prompt{}, fmt.Errorf("answer: the generator was configured with other instructions than prompt %s", PromptVersion)
	}
	return BuildPrompt(r.asked(question), chunks, r.InputCap, r.Redactor)
}

// asked is the question as the prompt states it: with a note naming the
// asker when Me is known, and, for a question in English, one asking for
// an answer in English (the abstention phrase stays AbstainPhrase, which
// marks an abstention).
func (r *Remote) asked(question string) string {
	q := question
	if r.Me != "" {
		q += "\n（質問しているのは、履歴の「" + r.Me + "」です）"
	}
	if English(question) {
		q += "\n（英語の質問です。英語で答えてください。分からないときは「" + AbstainPhrase + "」とだけ答えてください）"
	}
	return q
}

// Answer implements Answerer: the prompt is looked up in the cache by
// (sha256 of the input, provider, model, sha256 of the generator's
// parameters, which cover the instructions); a miss is generated, stored
// with its provenance (kind "answer") and parsed. Without chunks there is
// nothing to answer from: the answer abstains and nothing is sent.
func (r *Remote) Answer(ctx context.Context, question string, chunks []memory.Result) (Answer, error) {
	a := Answer{Question: question, Provider: r.Name(), Model: r.Model(), PromptVersion: PromptVersion, Chunks: chunkIDs(chunks), Citations: []Citation{}}
	if len(chunks) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a, nil
	}
	p, err := r.Prompt(question, chunks)
	if err != nil {
		return a, err
	}
	a.Truncated = p.Truncated()
	key := cache.NewKey(p.Input, r.Gen)
	text := ""
	if r.Cache != nil {
		out, ok, err := r.Cache.Get(ctx, key)
		if err != nil {
			return a, err
		}
		if ok {
			text, a.Cached = out.Text, true
		}
	}
	if !a.Cached {
		if r.Gen.Remote() && !r.AllowRemote {
			return a, fmt.Errorf("%w: answering would send the question and %d chunks (%d characters) to %s", ErrRemoteNotAllowed, len(chunks), utf8.RuneCountInString(p.Input), r.Destination())
		}
		if r.BeforeSend != nil {
			r.BeforeSend(p, r.Destination())
		}
		res, err := r.Gen.Summarize(ctx, provider.SummaryRequest{Input: p.Input})
		if err != nil {
			return a, err
		}
		if strings.TrimSpace(res.Text) == "" {
			return a, errors.New("answer: the generator returned an empty answer")
		}
		text = res.Text
		a.Usage, a.ReturnedModel, a.Latency = usageOf(res.Call.Usage), res.Call.ReturnedModel, ms(res.Call.Latency)
		if r.Cache != nil {
			n := utf8.RuneCountInString(p.Input)
			out := cache.Output{Key: key, Kind: cache.KindAnswer, Item: question, InputChars: n,
				Span:      cache.Span{SourceChars: p.SourceChars, HeadEnd: n, TailStart: n, Cap: r.cap()},
				Redaction: r.Redactor.Describe(), Redacted: p.Redacted, Text: text}
			call := cache.Call{Provider: r.Gen.Name(), Kind: cache.KindAnswer, Params: r.Gen.Params(), BatchSize: 1, Call: res.Call}
			if err := r.Cache.Put(context.WithoutCancel(ctx), call, []cache.Output{out}); err != nil {
				return a, err
			}
		}
	}
	r.attribute(&a, text, p, chunks)
	return a, nil
}

// Cached reports whether the answer to p is in the cache, so answering it
// sends nothing.
func (r *Remote) Cached(ctx context.Context, p Prompt) (bool, error) {
	if r.Cache == nil {
		return false, nil
	}
	_, ok, err := r.Cache.Get(ctx, cache.NewKey(p.Input, r.Gen))
	return ok, err
}

func (r *Remote) cap() int {
	if r.InputCap <= 0 {
		return DefaultInputCap
	}
	return r.InputCap
}

// attribute parses text's citations and names, for each valid one, the
// messages of the cited chunk that were in the prompt and best match the
// sentences citing it (BM25, at most SupportMessages, score > 0).
func (r *Remote) attribute(a *Answer, text string, p Prompt, chunks []memory.Result) {
	a.Text = strings.TrimSpace(text)
	a.Abstained = strings.Contains(a.Text, AbstainPhrase)
	cites := ParseCitations(a.Text, len(chunks))
	a.Invalid, a.Duplicates = cites.Invalid, cites.Duplicates
	citing := citingSentences(a.Text, len(chunks))
	for _, n := range cites.Valid {
		c := Citation{N: n, ChunkID: chunks[n-1].ChunkID, MessageIDs: []string{}}
		if r.Tokenizer != nil {
			c.MessageIDs = support(r.Tokenizer, citing[n], chunks[n-1], p.Chunks[n-1].MessageIDs)
		}
		a.Citations = append(a.Citations, c)
	}
}

// citingSentences maps each chunk number to the text (citations removed) of
// the sentences that cite it; sentences end at 。！？!? or a line break,
// a citation right after the end mark belonging to the sentence before.
func citingSentences(text string, n int) map[int]string {
	out := map[int]string{}
	start := 0
	var sentences []string
	for _, loc := range sentenceEnd.FindAllStringIndex(text, -1) {
		sentences = append(sentences, text[start:loc[1]])
		start = loc[1]
	}
	sentences = append(sentences, text[start:])
	for _, s := range sentences {
		for _, k := range ParseCitations(s, n).Valid {
			out[k] += StripCitations(s) + " "
		}
	}
	return out
}

// sentenceEnd is an end mark with the citations that follow it.
var sentenceEnd = regexp.MustCompile(`[。！？!?\n](?:\s*` + citationPattern.String() + `)*`)

func support(tok tokenize.Tokenizer, query string, c memory.Result, sent []string) []string {
	in := map[string]bool{}
	for _, id := range sent {
		in[id] = true
	}
	var docs []bm25.Doc
	for _, m := range c.Window() {
		if in[m.ID] {
			docs = append(docs, bm25.Doc{ID: m.ID, StartAt: m.At.Format("2006-01-02T15:04:05"), Text: m.Text})
		}
	}
	hits := bm25.New(docs, tok).Search(query, SupportMessages)
	ids := make([]string, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.ChunkID)
	}
	return ids
}
