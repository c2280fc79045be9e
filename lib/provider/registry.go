package provider

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options configures a provider built through the registry. Zero values mean
// the provider's documented default; fields a provider does not use are ignored.
type Options struct {
	Model        string // requested model
	BaseURL      string // service endpoint; "" = the SDK's (which reads OPENAI_BASE_URL)
	Organization string // organisation header; "" = the SDK's (which reads OPENAI_ORG_ID)

	Instructions    string        // summaries: system prompt; "" = represent.SummarySystemPrompt
	MaxOutputTokens int           // summaries: output limit
	ServiceStore    bool          // summaries: let the service retain responses (openai: store unset); false sends store=false
	Timeout         time.Duration // per attempt
	Interval        time.Duration // minimum gap between request starts; < 0 = none
	MaxAttempts     int           // attempts per request, ≥ 1
	RequestsPerMin  int           // client-side limit, 0 = none
	TokensPerMin    int           // client-side limit on estimated tokens, 0 = none

	Dimensions int // embeddings: requested dimension, 0 = model default

	SummariesFile string // file summarizer: JSONL {"chunk_id", "summary"}

	VocabSize int      // lsa: vocabulary size, 0 = default
	Seed      uint64   // lsa: sketch seed, 0 = default
	Corpus    []string // lsa: texts to fit on when State is nil
	State     []byte   // lsa: a fitted model from Stateful.State
	Tokenizer string   // lsa: tokenizer name, "" = the provider default
}

// SummarizerFactory builds a summarizer from options.
type SummarizerFactory func(Options) (Summarizer, error)

// EmbedderFactory builds an embedder from options.
type EmbedderFactory func(Options) (Embedder, error)

var (
	registryMu  sync.RWMutex
	summarizers = map[string]SummarizerFactory{}
	embedders   = map[string]EmbedderFactory{}
)

// RegisterSummarizer makes a summarizer available under name. It panics when
// name is registered twice (a programming error).
func RegisterSummarizer(name string, f SummarizerFactory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := summarizers[name]; dup {
		panic("provider: summarizer registered twice: " + name)
	}
	summarizers[name] = f
}

// RegisterEmbedder makes an embedder available under name. It panics when
// name is registered twice.
func RegisterEmbedder(name string, f EmbedderFactory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := embedders[name]; dup {
		panic("provider: embedder registered twice: " + name)
	}
	embedders[name] = f
}

// NewSummarizer builds the summarizer registered under name. An unknown name
// is an error that lists the registered ones.
func NewSummarizer(name string, opts Options) (Summarizer, error) {
	registryMu.RLock()
	f, ok := summarizers[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown summary provider %q (have: %s)", name, strings.Join(SummarizerNames(), ", "))
	}
	return f(opts)
}

// NewEmbedder builds the embedder registered under name. An unknown name is
// an error that lists the registered ones.
func NewEmbedder(name string, opts Options) (Embedder, error) {
	registryMu.RLock()
	f, ok := embedders[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown embedding provider %q (have: %s)", name, strings.Join(EmbedderNames(), ", "))
	}
	return f(opts)
}

// SummarizerNames lists registered summarizers, sorted.
func SummarizerNames() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return sortedKeys(summarizers)
}

// EmbedderNames lists registered embedders, sorted.
func EmbedderNames() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return sortedKeys(embedders)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
