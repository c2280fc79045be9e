package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/mcpserver"
)

// TestErrorCodes runs a session on stdio and checks the JSON-RPC code of
// each answer: never 0, and the one the specification assigns.
func TestErrorCodes(t *testing.T) {
	server, err := mcpserver.New(mcpserver.Config{Store: fixtureStore(t)})
	if err != nil {
		t.Fatal(err)
	}
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":10,"method":"tools/list"}`,
		initialize("2025-06-18"),
		initialized,
		`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":12,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"search_memory","arguments":{"question":"締切","k":0}}}`,
		toolsList,
	}, "\n") + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	var out syncBuffer
	if err := server.Run(ctx, &mcpserver.StdioTransport{In: strings.NewReader(input), Out: &out}); err != nil {
		t.Fatal(err)
	}
	resps := responses(t, out.String())
	want := map[string]int{"10": mcpserver.CodeNotInitialized, "11": -32600, "12": -32601, "13": -32602}
	for id, code := range want {
		var e struct {
			Code    int
			Message string
		}
		if json.Unmarshal(resps[id]["error"], &e) != nil || e.Code != code {
			t.Errorf("request %s answered %s, want error code %d", id, resps[id]["error"], code)
		}
		if goInternals.MatchString(e.Message) {
			t.Errorf("request %s: message %q speaks of Go internals", id, e.Message)
		}
	}
	if !strings.Contains(string(resps["10"]["error"]), "send initialize") {
		t.Errorf("the early request's error %s does not say what to send first", resps["10"]["error"])
	}
	var res struct{ IsError bool }
	if json.Unmarshal(resps["14"]["result"], &res) != nil || !res.IsError {
		t.Errorf("a bad argument answered %s, want a tool error", resps["14"])
	}
	for _, key := range []string{"ttlMs", "cacheScope"} {
		if strings.Contains(string(resps["3"]["result"]), `"`+key+`"`) {
			t.Errorf("tools/list under 2025-06-18 carries %s", key)
		}
	}
	if !strings.Contains(string(resps["3"]["result"]), mcpserver.ToolSearch) {
		t.Errorf("tools/list answered %s", resps["3"])
	}
}

// TestHTTPListWithoutCacheFields lists the tools over HTTP under protocol
// 2025-06-18, which has no ttlMs or cacheScope.
func TestHTTPListWithoutCacheFields(t *testing.T) {
	ts := httpServer(t, mcpserver.HTTPOptions{})
	status, id := post(t, ts.URL, nil)
	if status != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q", status, id)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", id)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), mcpserver.ToolSearch) || strings.Contains(string(body), `"ttlMs"`) || strings.Contains(string(body), `"cacheScope"`) {
		t.Errorf("tools/list answered %d %.300s, want the tools without ttlMs and cacheScope", resp.StatusCode, body)
	}
}
