// Package provider defines the two generators behind linemem's search
// representations — a Summarizer that writes the summary of a chunk (spec §7)
// and an Embedder that turns texts into dense vectors (spec §9) — together with
// the provenance every call returns and a registry that maps provider names
// ("openai", "lsa", "file") to constructors.
//
// Implementations live in subpackages and register themselves in init, the way
// database/sql drivers do; a program imports the ones it offers:
//
//	import _ "github.com/linemem/linemem/lib/provider/openai"
//
// The paper's own limitations (§9) list what its run record lacked: retry
// counts, the returned model snapshot, the input span actually sent and the
// SDK version. Call carries each of these for every request.
package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Summarizer writes one summary per request.
type Summarizer interface {
	// Name is the provider name under which the summarizer is registered.
	Name() string
	// Model is the requested model.
	Model() string
	// Params is a canonical rendering of every setting besides the model that
	// changes the output (prompt, output limit, …); it is hashed into cache keys.
	Params() string
	// Remote reports whether requests leave this machine.
	Remote() bool
	// Summarize returns the summary of req.Input.
	Summarize(ctx context.Context, req SummaryRequest) (SummaryResult, error)
}

// SummaryRequest is one summary call.
type SummaryRequest struct {
	// ID names the chunk. It is never sent; offline summarizers look it up.
	ID string
	// Input is the complete user message: for the paper's prompt,
	// represent.SummaryInput of the (possibly redacted) raw_text.
	Input string
}

// SummaryResult is a summary with the provenance of the call that produced it.
type SummaryResult struct {
	Text string
	Call Call
}

// Embedder turns texts into vectors of one fixed dimension.
type Embedder interface {
	// Name is the provider name under which the embedder is registered.
	Name() string
	// Model is the requested model; vectors are stored under this name.
	Model() string
	// Dimension is the length of every vector Embed returns; 0 while unknown
	// (a remote model with no configured dimension, before its first answer).
	Dimension() int
	// Params is a canonical rendering of every setting besides the model that
	// changes the output; it is hashed into cache keys.
	Params() string
	// Remote reports whether texts leave this machine.
	Remote() bool
	// Embed returns one vector per text, in order. A text must not be empty.
	Embed(ctx context.Context, texts []string) (EmbedResult, error)
}

// Batcher is implemented by embedders whose service limits one request.
// Callers split their texts so that no request exceeds MaxInputs texts or
// MaxTokens estimated tokens (EstimateTokens summed over the batch).
type Batcher interface {
	BatchLimits() (maxInputs, maxTokens int)
}

// Stateful is implemented by providers whose output depends on fitted state
// (the lsa embedder). State serialises it; the registry's Options.State
// restores it.
type Stateful interface {
	State() ([]byte, error)
}

// IDBound is implemented by summarizers whose answer depends on the request
// ID rather than on its Input (an offline lookup by chunk ID). Their cache
// keys cover the ID as well as the input.
type IDBound interface {
	IDBound()
}

// Endpointer is implemented by remote providers: Endpoint is the URL that
// receives the text, for privacy notices.
type Endpointer interface {
	Endpoint() string
}

// EmbedResult holds one vector per input text and the provenance of the call.
type EmbedResult struct {
	Vectors [][]float32
	Call    Call
}

// Call is the provenance of one logical request (all its attempts).
type Call struct {
	RequestedModel string
	ReturnedModel  string // model string in the response; equals RequestedModel for local providers
	ResponseID     string // the service's response identifier, when it has one
	Status         string // the service's response status ("completed", "incomplete"), when it has one
	Attempts       int    // HTTP attempts, 1 when the first succeeded
	Latency        time.Duration
	Usage          Usage
	SDK            string // client library and version, e.g. "openai-go v3.98.0"; empty for local providers
}

// Usage is token accounting as reported by the service (zero when it reports none).
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	TotalTokens  int64
}

// CallError is a request that failed after Attempts tries. Permanent errors
// (bad request, authentication, a malformed or inconsistent answer that
// retrying cannot fix) do not succeed when repeated; transient ones (429, 5xx,
// timeouts, network) failed only because attempts ran out.
type CallError struct {
	Attempts    int
	Permanent   bool
	Unreachable bool // no connection could be made (see Unreachable)
	Err         error
}

func (e *CallError) Error() string {
	kind := "transient"
	if e.Permanent {
		kind = "permanent"
	}
	return fmt.Sprintf("%s error after %d attempt(s): %v", kind, e.Attempts, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// IsPermanent reports whether err is, or wraps, a permanent CallError.
func IsPermanent(err error) bool {
	var ce *CallError
	return errors.As(err, &ce) && ce.Permanent
}

// ErrDimensionChanged reports an embedding whose length differs from the
// dimension fixed by configuration or by an earlier answer.
var ErrDimensionChanged = errors.New("embedding dimension changed")

// ParamsHash is hex(sha256(params)), the parameters component of a cache key.
func ParamsHash(params string) string {
	sum := sha256.Sum256([]byte(params))
	return hex.EncodeToString(sum[:])
}

// EstimateTokens approximates the tokens a text costs with OpenAI's
// tokenizers: one per non-ASCII code point (Japanese runs close to one token
// per character, somewhat less for common words) plus one per four ASCII
// bytes, rounded up. It errs on the high side and is used only to budget rate
// limits, batches and --dry-run costs; usage reported by the service is what
// provenance records.
func EstimateTokens(text string) int {
	ascii, other := 0, 0
	for _, r := range text {
		if r < 0x80 {
			ascii++
		} else {
			other++
		}
	}
	return other + (ascii+3)/4
}
