package mcpserver_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
)

// TestHTTPOpenStreamKeepsSession: a client whose GET event stream stays open
// keeps its session past the idle timeout and calls a tool afterwards; a
// client without a stream loses its session, and the next request is
// answered 404 saying to initialize again.
func TestHTTPOpenStreamKeepsSession(t *testing.T) {
	const idle = 100 * time.Millisecond
	ts := httpServer(t, mcpserver.HTTPOptions{IdleTimeout: idle})
	connect := func(stream bool) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: ts.URL, DisableStandaloneSSE: !stream, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	streaming, quiet := connect(true), connect(false)
	time.Sleep(10 * idle)
	var src mcpserver.SourcesOutput
	if e := call(t, streaming, mcpserver.ToolSources, nil, &src); e != "" || len(src.Sources) != 2 {
		t.Errorf("with its stream open after %v idle: %d sources, error %q", 10*idle, len(src.Sources), e)
	}
	_, err := quiet.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolSources})
	if err == nil {
		t.Fatalf("without a stream, idle %v: the call succeeded, want the session expired", 10*idle)
	}

	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", quiet.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "send initialize again") {
		t.Errorf("a request naming the expired session: %d %s, want 404 saying to initialize again", resp.StatusCode, body)
	}
}

// TestHTTPReboundHostRefused: a request naming another host than a loopback
// one (a DNS-rebound name) is refused with a message that names the hosts
// the server does answer to, never the refused one as allowed.
func TestHTTPReboundHostRefused(t *testing.T) {
	ts := httpServer(t, mcpserver.HTTPOptions{})
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(initializeBody))
	req.Host = "evil.example:80"
	req.Header.Set("Origin", "http://evil.example:80")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "answers only to localhost") || strings.Contains(string(body), "from http://evil.example") {
		t.Errorf("rebound host: %d %q", resp.StatusCode, body)
	}
}

// TestReadTokenRefusesLooseFile: a token file its group or others may read
// is refused with the chmod that fixes it.
func TestReadTokenRefusesLooseFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("0123456789abcdef0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpserver.ReadToken(file); err == nil || !strings.Contains(err.Error(), "chmod 600 "+file) {
		t.Errorf("0644 token file: %v, want the chmod 600 to run", err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := mcpserver.ReadToken(file); err != nil || got != "0123456789abcdef0123" {
		t.Errorf("0600 token file: %q, %v", got, err)
	}
}
