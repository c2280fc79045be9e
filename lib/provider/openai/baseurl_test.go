package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/provider/openai"
)

func TestCheckBaseURL(t *testing.T) {
	for _, c := range []struct {
		url  string
		want string // part of the error; "" = accepted
	}{
		{"https://api.openai.com/v1/", ""},
		{"http://127.0.0.1:8080/v1", ""},
		{"http://[::1", "missing ']' in host"},
		{"localhost:8080/v1", "starting with http:// or https://"},
		{"ftp://example.com/v1", "starting with http:// or https://"},
		{"http:///v1", "a host after http://"},
		{"https://exa mple.com", "invalid character"},
		{"", "starting with http:// or https://"},
	} {
		err := openai.CheckBaseURL("--base-url", c.url)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v, want accepted", c.url, err)
			}
			continue
		}
		if !errors.Is(err, openai.ErrBaseURL) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--base-url") {
			t.Errorf("%q: %v, want ErrBaseURL naming --base-url and %q", c.url, err, c.want)
		}
	}
}

// TestConstructorsCheckTheBaseURL: a bad URL, given or from OPENAI_BASE_URL,
// fails the constructor, before any request.
func TestConstructorsCheckTheBaseURL(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "not a url")
	if _, err := openai.NewEmbedder(openai.EmbedderConfig{}); !errors.Is(err, openai.ErrBaseURL) || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("NewEmbedder with OPENAI_BASE_URL %q: %v", "not a url", err)
	}
	t.Setenv("OPENAI_BASE_URL", "")
	_, err := openai.NewSummarizer(openai.SummarizerConfig{Instructions: "x", Config: openai.Config{BaseURL: "http://[::1"}})
	if !errors.Is(err, openai.ErrBaseURL) || !strings.Contains(err.Error(), "--base-url") {
		t.Errorf("NewSummarizer with --base-url %q: %v", "http://[::1", err)
	}
}
