package mcpserver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func httpServer(t *testing.T, opts mcpserver.HTTPOptions) *httptest.Server {
	t.Helper()
	srv, err := mcpserver.New(mcpserver.Config{Store: fixtureStore(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcpserver.HTTPHandler(t.Context(), srv, opts))
	t.Cleanup(ts.Close)
	return ts
}

// post sends an initialize request with the given headers and returns the
// status and the session ID the server gave.
func post(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

func TestHTTPOrigin(t *testing.T) {
	ts := httpServer(t, mcpserver.HTTPOptions{})
	own := ts.URL // http://127.0.0.1:PORT
	port := own[strings.LastIndex(own, ":"):]
	cases := []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{own, http.StatusOK},
		{strings.Replace(own, "http:", "https:", 1), http.StatusForbidden}, // the server speaks plain HTTP
		{"http://evil.example", http.StatusForbidden},
		{"http://evil.example" + port, http.StatusForbidden},
		{"http://localhost" + port, http.StatusForbidden}, // another origin than the Host the request names
		{"http://127.0.0.1:1", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{own + "/page", http.StatusForbidden},
	}
	for _, c := range cases {
		h := map[string]string{}
		if c.origin != "" {
			h["Origin"] = c.origin
		}
		if got, _ := post(t, ts.URL, h); got != c.want {
			t.Errorf("Origin %q: status %d, want %d", c.origin, got, c.want)
		}
	}
}

// bearer adds a token to every request of a client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPToken(t *testing.T) {
	const token = "0123456789abcdef0123"
	ts := httpServer(t, mcpserver.HTTPOptions{Token: token})
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong-token-of-some-length"}, {"Authorization": token}} {
		if got, _ := post(t, ts.URL, h); got != http.StatusUnauthorized {
			t.Errorf("headers %v: status %d, want 401", h, got)
		}
	}
	if got, _ := post(t, ts.URL, map[string]string{"Authorization": "Bearer " + token, "Origin": "http://evil.example"}); got != http.StatusForbidden {
		t.Errorf("the token from another site's page: status %d, want 403", got)
	}
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: bearer{token}}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var src mcpserver.SourcesOutput
	if e := call(t, cs, mcpserver.ToolSources, nil, &src); e != "" || len(src.Sources) != 2 {
		t.Errorf("with the token: %d sources, error %q", len(src.Sources), e)
	}
}

// TestHTTPIdleSession checks that a session without requests is closed:
// its ID is then unknown (404), as after the client ends it.
func TestHTTPIdleSession(t *testing.T) {
	ts := httpServer(t, mcpserver.HTTPOptions{IdleTimeout: 50 * time.Millisecond})
	status, id := post(t, ts.URL, nil)
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", status, id)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequest(http.MethodDelete, ts.URL, nil)
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s still open (DELETE: %d) long after its idle time", id, resp.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		content string
		want    string // the token, or a piece of the error
		ok      bool
	}{
		{"0123456789abcdef\n", "0123456789abcdef", true},
		{"  s3cr3t-t0ken-0123456789  \r\n", "s3cr3t-t0ken-0123456789", true},
		{"", "empty", false},
		{" \n", "empty", false},
		{"short", "at least 16", false},
		{"0123456789 abcdef", "white space", false},
		{"0123456789abcdef\n0123456789abcdef", "white space", false},
	}
	for i, c := range cases {
		file := filepath.Join(dir, "token"+string(rune('a'+i)))
		if err := os.WriteFile(file, []byte(c.content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := mcpserver.ReadToken(file)
		switch {
		case c.ok && (err != nil || got != c.want):
			t.Errorf("%q: %q, %v; want %q", c.content, got, err, c.want)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), file)):
			t.Errorf("%q: error %v, want one naming %s and containing %q", c.content, err, file, c.want)
		}
	}
}
