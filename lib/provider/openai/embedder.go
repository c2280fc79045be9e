package openai

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sync"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/linemem/linemem/lib/provider"
)

// Embedding defaults and limits (spec §7, §9; OpenAI's documented limits).
const (
	DefaultEmbeddingModel = "text-embedding-3-small"
	// MaxBatchInputs is the most inputs one embeddings request may carry.
	MaxBatchInputs = 2048
	// DefaultMaxBatchTokens keeps a request's estimated tokens well under the
	// service's 300,000 per request, leaving room for estimation error.
	DefaultMaxBatchTokens = 200_000
)

// defaultDimensions are the native dimensions of OpenAI's embedding models.
var defaultDimensions = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// EmbedderConfig configures an Embedder.
type EmbedderConfig struct {
	Config
	// Dimensions is sent as `dimensions` when > 0 and then fixes the vector
	// length. When 0 nothing is sent and the length is the model's native one
	// (1,536 for text-embedding-3-small), or for an unknown model the length of
	// the first answer.
	Dimensions     int
	MaxBatchTokens int // 0 = DefaultMaxBatchTokens
}

// Embedder calls POST /embeddings with encoding_format=float. Every vector it
// returns has the same length: an answer of another length is rejected with
// provider.ErrDimensionChanged, as is one whose vectors disagree.
type Embedder struct {
	c         *client
	requested int
	maxTokens int

	mu  sync.Mutex
	dim int
}

// NewEmbedder returns an embedder; an empty Model means DefaultEmbeddingModel.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultEmbeddingModel
	}
	if cfg.Dimensions < 0 {
		return nil, fmt.Errorf("openai: negative dimensions %d", cfg.Dimensions)
	}
	if cfg.MaxBatchTokens <= 0 {
		cfg.MaxBatchTokens = DefaultMaxBatchTokens
	}
	dim := cfg.Dimensions
	if dim == 0 {
		dim = defaultDimensions[cfg.Model]
	}
	c, err := newClient(cfg.Config)
	if err != nil {
		return nil, err
	}
	return &Embedder{c: c, requested: cfg.Dimensions, maxTokens: cfg.MaxBatchTokens, dim: dim}, nil
}

func (e *Embedder) Name() string  { return Name }
func (e *Embedder) Model() string { return e.c.cfg.Model }

// Remote reports whether texts leave this machine: false when the service
// URL's host is a loopback address (127.0.0.0/8, ::1) or "localhost", as
// for a local embedding server started beside linemem; true otherwise.
func (e *Embedder) Remote() bool { return !IsLoopbackURL(e.c.baseURL) }

// Endpoint is the URL requests go to.
func (e *Embedder) Endpoint() string { return e.c.endpoint("embeddings") }

// Dimension is the fixed vector length, 0 while unknown.
func (e *Embedder) Dimension() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// Params renders the output-relevant settings.
func (e *Embedder) Params() string {
	return fmt.Sprintf("api=embeddings;encoding_format=float;dimensions=%d", e.requested)
}

// BatchLimits implements provider.Batcher.
func (e *Embedder) BatchLimits() (int, int) { return MaxBatchInputs, e.maxTokens }

// Embed sends texts as one request (callers batch with BatchLimits). The
// answer must hold exactly one finite vector per input, each index once.
func (e *Embedder) Embed(ctx context.Context, texts []string) (provider.EmbedResult, error) {
	if len(texts) == 0 {
		return provider.EmbedResult{}, nil
	}
	if len(texts) > MaxBatchInputs {
		return provider.EmbedResult{}, fmt.Errorf("openai: %d inputs in one request, limit %d", len(texts), MaxBatchInputs)
	}
	tokens := 0
	for i, t := range texts {
		if t == "" {
			return provider.EmbedResult{}, &provider.CallError{Permanent: true, Err: fmt.Errorf("input %d is empty", i)}
		}
		tokens += provider.EstimateTokens(t)
	}
	params := openai.EmbeddingNewParams{
		Input:          openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		Model:          e.c.cfg.Model,
		EncodingFormat: openai.EmbeddingNewParamsEncodingFormatFloat,
	}
	if e.requested > 0 {
		params.Dimensions = openai.Int(int64(e.requested))
	}
	var resp *openai.CreateEmbeddingResponse
	var vectors [][]float32
	attempts, latency, sdk, err := e.c.call(ctx, tokens, func(ctx context.Context, raw **http.Response) error {
		r, err := e.c.sdk.Embeddings.New(ctx, params, option.WithResponseInto(raw))
		if err != nil {
			return err
		}
		v, err := e.accept(r, len(texts))
		if err != nil {
			return permanentError{err}
		}
		resp, vectors = r, v
		return nil
	})
	if err != nil {
		return provider.EmbedResult{}, err
	}
	return provider.EmbedResult{
		Vectors: vectors,
		Call: provider.Call{
			RequestedModel: e.c.cfg.Model,
			ReturnedModel:  resp.Model,
			Attempts:       attempts,
			Latency:        latency,
			Usage:          provider.Usage{InputTokens: resp.Usage.PromptTokens, TotalTokens: resp.Usage.TotalTokens},
			SDK:            sdk,
		},
	}, nil
}

// accept checks an answer and fixes the dimension on first use.
func (e *Embedder) accept(r *openai.CreateEmbeddingResponse, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, fmt.Errorf("answer holds %d embeddings for %d inputs", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || int(d.Index) >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("answer has a missing, repeated or out-of-range index %d", d.Index)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embedding %d is empty", d.Index)
		}
		v := make([]float32, len(d.Embedding))
		for j, x := range d.Embedding {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("embedding %d has a non-finite component", d.Index)
			}
			v[j] = float32(x)
		}
		out[d.Index] = v
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	dim := e.dim
	if dim == 0 {
		dim = len(out[0])
	}
	for i, v := range out {
		if len(v) != dim {
			return nil, fmt.Errorf("%w: embedding %d has %d components, expected %d", provider.ErrDimensionChanged, i, len(v), dim)
		}
	}
	e.dim = dim
	return out, nil
}
