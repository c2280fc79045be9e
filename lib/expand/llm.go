package expand

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
)

// PromptVersion names the decomposition prompt; a new prompt gets a new
// version and file, and the prompt text's hash is part of every cache key, so
// answers to an older prompt are never reused for a newer one.
const PromptVersion = "decompose-ja-v1"

// DecomposeInstructions is the system prompt of PromptVersion
// (prompts/decompose_ja_v1.txt), sent as the Responses API's instructions.
//
//go:embed prompts/decompose_ja_v1.txt
var DecomposeInstructions string

// Decomposition limits.
const (
	MaxSubQueries      = 5   // lines kept from an answer
	MaxSubQueryChars   = 100 // a longer line is not a query; it is dropped
	DecomposeMaxTokens = 300 // output limit sent with each request
)

// KindDecomposition is the cache kind of decomposer answers.
const KindDecomposition = "decomposition"

// ErrNotCached is returned by an offline Decomposer for a question it has
// no stored answer to.
var ErrNotCached = errors.New("no stored decomposition")

// DecomposeInput is the user message sent for question: the question alone,
// trimmed.
func DecomposeInput(question string) string { return strings.TrimSpace(question) }

// Decomposer asks a text generator (an OpenAI Responses summarizer built
// with DecomposeInstructions, lib/provider/openai) to split a question into
// sub-queries, and parses the answer with ParseSubQueries. With a Cache,
// each answer is stored under cache.NewKey(DecomposeInput(q), Gen) with the
// call's provenance, and looked up before sending; Offline forbids sending:
// a question without a stored answer is ErrNotCached. Whether a remote
// generator may be called at all is the caller's decision
// (`--allow-remote`); Decomposer only sends what it is asked to.
type Decomposer struct {
	Gen     provider.Summarizer
	Cache   *cache.Cache // nil: no caching
	Offline bool
}

// Name returns NameLLM.
func (*Decomposer) Name() string { return NameLLM }

// Expand implements QueryExpander.
func (d *Decomposer) Expand(ctx context.Context, query string) ([]string, error) {
	text, err := d.Answer(ctx, query)
	if err != nil {
		return nil, err
	}
	return ParseSubQueries(text, query), nil
}

// Answer returns the generator's raw answer for query, from the cache when
// stored.
func (d *Decomposer) Answer(ctx context.Context, query string) (string, error) {
	input := DecomposeInput(query)
	key := cache.NewKey(input, d.Gen)
	if d.Cache != nil {
		out, ok, err := d.Cache.Get(ctx, key)
		if err != nil {
			return "", err
		}
		if ok {
			return out.Text, nil
		}
	}
	if d.Offline {
		return "", fmt.Errorf("%w for %q under %s %s (%s); run `linemem decompose` first", ErrNotCached, query, d.Gen.Name(), d.Gen.Model(), PromptVersion)
	}
	res, err := d.Gen.Summarize(ctx, provider.SummaryRequest{ID: input, Input: input})
	if err != nil {
		return "", fmt.Errorf("decompose %q: %w", query, err)
	}
	if d.Cache != nil {
		n := utf8.RuneCountInString(input)
		call := cache.Call{Provider: d.Gen.Name(), Kind: KindDecomposition, Params: d.Gen.Params(), BatchSize: 1, Call: res.Call}
		out := cache.Output{Key: key, Kind: KindDecomposition, Item: input, InputChars: n,
			Span: cache.Span{SourceChars: n, HeadEnd: n, TailStart: n}, Text: res.Text}
		if err := d.Cache.Put(ctx, call, []cache.Output{out}); err != nil {
			return "", err
		}
	}
	return res.Text, nil
}

// ParseSubQueries reads a decomposer answer: one sub-query per line; leading
// list markers ("1.", "2)", "-", "*", "・", "•", "（1）") and surrounding
// quotes and spaces are removed; empty lines, lines longer than
// MaxSubQueryChars, repeats and the question itself are dropped; at most
// MaxSubQueries are kept, in answer order.
func ParseSubQueries(answer, question string) []string {
	var out []string
	seen := map[string]bool{strings.TrimSpace(question): true}
	for _, line := range strings.Split(answer, "\n") {
		q := stripMarker(strings.TrimSpace(line))
		q = strings.Trim(q, " 　\"'「」『』`")
		if q == "" || seen[q] || utf8.RuneCountInString(q) > MaxSubQueryChars {
			continue
		}
		seen[q] = true
		out = append(out, q)
		if len(out) == MaxSubQueries {
			break
		}
	}
	return out
}

func stripMarker(s string) string {
	for _, m := range []string{"- ", "* ", "・", "•", "-", "*"} {
		if rest, ok := strings.CutPrefix(s, m); ok {
			return strings.TrimSpace(rest)
		}
	}
	for _, open := range []string{"（", "("} {
		if rest, ok := strings.CutPrefix(s, open); ok {
			digits := strings.TrimLeftFunc(rest, unicode.IsDigit)
			if len(digits) < len(rest) {
				for _, cl := range []string{"）", ")"} {
					if r, ok := strings.CutPrefix(digits, cl); ok {
						return strings.TrimSpace(r)
					}
				}
			}
		}
	}
	digits := strings.TrimLeftFunc(s, func(r rune) bool { return unicode.IsDigit(r) })
	if len(digits) < len(s) {
		for _, sep := range []string{".", ")", "．", "、", "）", ":"} {
			if r, ok := strings.CutPrefix(digits, sep); ok {
				return strings.TrimSpace(r)
			}
		}
	}
	return s
}

// NewOpenAIGenerator returns the Responses-API generator a Decomposer sends
// to: DecomposeInstructions as instructions, DecomposeMaxTokens as the
// output limit, store=false; cfg chooses the model (an empty Model is the
// summarizer default), base URL, retries and rate limit.
func NewOpenAIGenerator(cfg openai.Config) (provider.Summarizer, error) {
	return openai.NewSummarizer(openai.SummarizerConfig{Config: cfg, Instructions: DecomposeInstructions, MaxOutputTokens: DecomposeMaxTokens})
}
