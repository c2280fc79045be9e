package provider_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/provider"
)

func TestEstimateTokens(t *testing.T) {
	cases := map[string]int{
		"":             0,
		"abcd":         1,
		"abcde":        2,
		"こんにちは":        5,
		"明日 18:00 に駅で": 5 + 2, // 5 non-ASCII + ceil(7 ASCII bytes / 4)
	}
	for in, want := range cases {
		if got := provider.EstimateTokens(in); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestCallError(t *testing.T) {
	base := errors.New("HTTP 400: bad")
	perm := fmt.Errorf("wrapped: %w", &provider.CallError{Attempts: 1, Permanent: true, Err: base})
	if !provider.IsPermanent(perm) || !errors.Is(perm, base) {
		t.Errorf("permanent error not recognised: %v", perm)
	}
	trans := &provider.CallError{Attempts: 6, Err: base}
	if provider.IsPermanent(trans) || provider.IsPermanent(base) {
		t.Error("transient or plain error reported permanent")
	}
	if got := trans.Error(); got != "transient error after 6 attempt(s): HTTP 400: bad" {
		t.Errorf("Error() = %q", got)
	}
}

type echo struct{}

func (echo) Name() string   { return "echo-test" }
func (echo) Model() string  { return "echo-1" }
func (echo) Params() string { return "" }
func (echo) Remote() bool   { return false }
func (echo) Summarize(_ context.Context, r provider.SummaryRequest) (provider.SummaryResult, error) {
	return provider.SummaryResult{Text: r.Input}, nil
}

func TestRegistry(t *testing.T) {
	provider.RegisterSummarizer("echo-test", func(provider.Options) (provider.Summarizer, error) { return echo{}, nil })
	s, err := provider.NewSummarizer("echo-test", provider.Options{})
	if err != nil || s.Model() != "echo-1" {
		t.Fatalf("NewSummarizer: %v %v", s, err)
	}
	_, err = provider.NewSummarizer("nope", provider.Options{})
	if err == nil || !strings.Contains(err.Error(), "echo-test") {
		t.Errorf("unknown name: %v (should list registered names)", err)
	}
	if _, err := provider.NewEmbedder("nope", provider.Options{}); err == nil {
		t.Error("unknown embedder accepted")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	provider.RegisterSummarizer("echo-test", nil)
}

func ExampleParamsHash() {
	fmt.Println(provider.ParamsHash("")[:16])
	// Output: e3b0c44298fc1c14
}
