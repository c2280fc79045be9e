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

// TestLoopbackServiceIsLocal: an embedder or summarizer whose service URL
// names a loopback host is local (no --allow-remote needed to send it
// texts); any other host, including a private-range address, is remote.
func TestLoopbackServiceIsLocal(t *testing.T) {
	for _, c := range []struct {
		url    string
		remote bool
	}{
		{"http://127.0.0.1:8791/v1", false},
		{"http://127.8.9.10/v1", false},
		{"http://[::1]:8791/v1", false},
		{"http://localhost:8791/v1", false},
		{"http://LOCALHOST/v1", false},
		{"https://api.openai.com/v1/", true},
		{"http://192.168.1.20:8791/v1", true},
		{"http://10.0.0.1/v1", true},
		{"http://[::2]/v1", true},
		{"http://localhost.example.com/v1", true},
		{"http://0.0.0.0:8791/v1", true},
	} {
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{BaseURL: c.url}})
		if err != nil {
			t.Fatalf("%s: %v", c.url, err)
		}
		if e.Remote() != c.remote || openai.IsLoopbackURL(c.url) == c.remote {
			t.Errorf("%s: Remote() = %v, IsLoopbackURL = %v; want remote %v", c.url, e.Remote(), openai.IsLoopbackURL(c.url), c.remote)
		}
		s, err := openai.NewSummarizer(openai.SummarizerConfig{Instructions: "x", Config: openai.Config{BaseURL: c.url}})
		if err != nil || s.Remote() != c.remote {
			t.Errorf("%s: summarizer Remote() = %v, %v; want %v", c.url, s != nil && s.Remote(), err, c.remote)
		}
	}
}

// TestLoopbackFromEnvironment: OPENAI_BASE_URL decides as --base-url does.
func TestLoopbackFromEnvironment(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	e, err := openai.NewEmbedder(openai.EmbedderConfig{})
	if err != nil || e.Remote() {
		t.Errorf("OPENAI_BASE_URL on loopback: Remote() = %v, %v; want local", err == nil && e.Remote(), err)
	}
}
