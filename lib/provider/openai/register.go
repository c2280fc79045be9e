package openai

import (
	"os"
	"time"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/represent"
)

// Registry defaults (spec §7): summaries wait DefaultInterval between request
// starts and DefaultTimeout per attempt.
const (
	DefaultTimeout  = 90 * time.Second
	DefaultInterval = 200 * time.Millisecond
)

func init() {
	provider.RegisterSummarizer(Name, func(o provider.Options) (provider.Summarizer, error) {
		if o.Timeout == 0 {
			o.Timeout = DefaultTimeout
		}
		if o.Instructions == "" {
			o.Instructions = represent.SummarySystemPrompt
		}
		interval := o.Interval
		switch {
		case interval == 0:
			interval = DefaultInterval
		case interval < 0:
			interval = 0
		}
		return NewSummarizer(SummarizerConfig{
			Config:          registryConfig(o, DefaultSummaryModel, interval),
			Instructions:    o.Instructions,
			MaxOutputTokens: o.MaxOutputTokens,
			ServiceStore:    o.ServiceStore,
		})
	})
	provider.RegisterEmbedder(Name, func(o provider.Options) (provider.Embedder, error) {
		if o.Timeout == 0 {
			o.Timeout = DefaultTimeout
		}
		return NewEmbedder(EmbedderConfig{
			Config:     registryConfig(o, DefaultEmbeddingModel, max(o.Interval, 0)),
			Dimensions: o.Dimensions,
		})
	})
}

// KeyPresent reports whether OPENAI_API_KEY is set and non-empty. A command
// checks it before sending so a missing key fails before any work.
func KeyPresent() bool { return os.Getenv("OPENAI_API_KEY") != "" }
