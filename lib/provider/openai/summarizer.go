package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/linemem/linemem/lib/provider"
)

// Paper parameters for summaries (spec §7).
const (
	DefaultSummaryModel    = "gpt-4o-mini"
	DefaultMaxOutputTokens = 700
)

// SummarizerConfig configures a Summarizer. Temperature, top-p and seed are
// never sent (the paper left them unset).
type SummarizerConfig struct {
	Config
	Instructions    string // the system prompt, sent as `instructions`
	MaxOutputTokens int    // `max_output_tokens`; 0 = DefaultMaxOutputTokens
	// ServiceStore leaves `store` unset, so the service keeps the response
	// under its default retention (what the paper did). false sends
	// store=false. It does not change the output and is not in Params.
	ServiceStore bool
}

// Summarizer calls POST /responses with instructions = the system prompt and
// input = the request's Input as a single string.
type Summarizer struct {
	c      *client
	instr  string
	maxOut int
	store  bool
}

// NewSummarizer returns a summarizer. An empty Model means DefaultSummaryModel;
// empty Instructions are an error.
func NewSummarizer(cfg SummarizerConfig) (*Summarizer, error) {
	if cfg.Instructions == "" {
		return nil, errors.New("openai: summarizer needs instructions")
	}
	if cfg.Model == "" {
		cfg.Model = DefaultSummaryModel
	}
	if cfg.MaxOutputTokens <= 0 {
		cfg.MaxOutputTokens = DefaultMaxOutputTokens
	}
	c, err := newClient(cfg.Config)
	if err != nil {
		return nil, err
	}
	return &Summarizer{c: c, instr: cfg.Instructions, maxOut: cfg.MaxOutputTokens, store: cfg.ServiceStore}, nil
}

func (s *Summarizer) Name() string  { return Name }
func (s *Summarizer) Model() string { return s.c.cfg.Model }

// Remote reports whether texts leave this machine, as Embedder.Remote
// does: false when the service URL's host is a loopback address or
// "localhost" (Ollama or vLLM beside linemem), true otherwise.
func (s *Summarizer) Remote() bool { return !IsLoopbackURL(s.c.baseURL) }

// Endpoint is the URL requests go to.
func (s *Summarizer) Endpoint() string { return s.c.endpoint("responses") }

// Instructions is the system prompt sent with every request.
func (s *Summarizer) Instructions() string { return s.instr }

// MaxOutputTokens is the output limit sent with every request.
func (s *Summarizer) MaxOutputTokens() int { return s.maxOut }

// Params renders the output-relevant settings: the API, a hash of the
// instructions and max_output_tokens.
func (s *Summarizer) Params() string {
	return fmt.Sprintf("api=responses;instructions_sha256=%s;max_output_tokens=%d",
		provider.ParamsHash(s.instr), s.maxOut)
}

// Summarize sends one request. The estimated tokens charged to the rate
// limiter are those of instructions + input + max_output_tokens. An answer
// with no output text is a permanent error; an "incomplete" answer (the
// output limit was reached) is returned with Call.Status recording it.
func (s *Summarizer) Summarize(ctx context.Context, req provider.SummaryRequest) (provider.SummaryResult, error) {
	params := responses.ResponseNewParams{
		Model:           s.c.cfg.Model,
		Instructions:    openai.String(s.instr),
		Input:           responses.ResponseNewParamsInputUnion{OfString: openai.String(req.Input)},
		MaxOutputTokens: openai.Int(int64(s.maxOut)),
	}
	if !s.store {
		params.Store = openai.Bool(false)
	}
	tokens := provider.EstimateTokens(s.instr) + provider.EstimateTokens(req.Input) + s.maxOut
	var resp *responses.Response
	attempts, latency, sdk, err := s.c.call(ctx, tokens, func(ctx context.Context, raw **http.Response) error {
		r, err := s.c.sdk.Responses.New(ctx, params, option.WithResponseInto(raw))
		if err != nil {
			return err
		}
		if r.OutputText() == "" {
			return permanentError{fmt.Errorf("response %s has no output text (status %q)", r.ID, r.Status)}
		}
		resp = r
		return nil
	})
	if err != nil {
		return provider.SummaryResult{}, err
	}
	return provider.SummaryResult{
		Text: resp.OutputText(),
		Call: provider.Call{
			RequestedModel: s.c.cfg.Model,
			ReturnedModel:  resp.Model,
			ResponseID:     resp.ID,
			Status:         string(resp.Status),
			Attempts:       attempts,
			Latency:        latency,
			Usage: provider.Usage{
				InputTokens:  resp.Usage.InputTokens,
				OutputTokens: resp.Usage.OutputTokens,
				TotalTokens:  resp.Usage.TotalTokens,
			},
			SDK: sdk,
		},
	}, nil
}
