package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
)

// hangLimit is how long a session that should end may run before the test
// calls it hung; every session here ends in milliseconds.
const hangLimit = 20 * time.Second

func initialize(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`
}

const (
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsList   = `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`
)

// syncBuffer is a bytes.Buffer safe for the SDK's concurrent writers and a
// reading test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// responses returns the responses written to out, by ID, batches unpacked.
func responses(t *testing.T, out string) map[string]map[string]json.RawMessage {
	t.Helper()
	got := map[string]map[string]json.RawMessage{}
	for line := range strings.Lines(out) {
		var msgs []map[string]json.RawMessage
		if strings.HasPrefix(line, "[") {
			if err := json.Unmarshal([]byte(line), &msgs); err != nil {
				t.Fatalf("output %q: %v", line, err)
			}
		} else {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("output %q: %v", line, err)
			}
			msgs = append(msgs, m)
		}
		for _, m := range msgs {
			if _, ok := m["method"]; !ok {
				got[string(m["id"])] = m
			}
		}
	}
	return got
}

func ids(resps map[string]map[string]json.RawMessage) []string {
	out := make([]string, 0, len(resps))
	for id := range resps {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// badLine is an input line answered by the transport itself: its number
// and JSON-RPC error code.
type badLine struct{ line, code int }

// TestStdioTransport pipes scripts into the server and checks which requests
// are answered and how the session ends.
func TestStdioTransport(t *testing.T) {
	st := fixtureStore(t)
	search := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_memory","arguments":{"question":"ポスターの締切","k":1}}}`
	ping := func(id int, pad int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"_meta":{"pad":%q}}}`, id, strings.Repeat("x", pad))
	}
	cases := []struct {
		name    string
		input   string
		maxLine int
		want    []string // IDs answered
		wantErr string   // "" : the session ends without error
		bad     badLine  // the line answered with id null, if any
	}{
		{"scripted session", strings.Join([]string{initialize("2025-06-18"), initialized, search, toolsList}, "\n") + "\n", 0, []string{"1", "2", "3"}, "", badLine{}},
		{"no input", "", 0, nil, "", badLine{}},
		{"no newline at the end", initialize("2025-06-18") + "\n" + initialized + "\n" + search, 0, []string{"1", "2"}, "", badLine{}},
		{"blank lines and CRLF", "\r\n" + initialize("2025-06-18") + "\r\n\r\n  \n" + initialized + "\r\n" + toolsList + "\r\n", 0, []string{"1", "3"}, "", badLine{}},
		{"request with a null id is a notification", initialize("2025-06-18") + "\n" + `{"jsonrpc":"2.0","id":null,"method":"tools/list"}` + "\n", 0, []string{"1"}, "", badLine{}},
		{"not JSON: answered, the session goes on", strings.Join([]string{initialize("2025-06-18"), initialized, search, "not json", toolsList}, "\n") + "\n", 0, []string{"1", "2", "3", "null"}, "", badLine{4, -32700}},
		{"JSON but not a message", initialize("2025-06-18") + "\n" + `{"foo":1}` + "\n" + toolsList + "\n", 0, []string{"1", "3", "null"}, "", badLine{2, -32600}},
		{"JSON-RPC 1.0", initialize("2025-06-18") + "\n" + `{"jsonrpc":"1.0","id":7,"method":"ping"}` + "\n" + toolsList + "\n", 0, []string{"1", "3", "null"}, "", badLine{2, -32600}},
		{"empty batch", initialize("2025-06-18") + "\n[]\n" + toolsList + "\n", 0, []string{"1", "3", "null"}, "", badLine{2, -32600}},
		{"batch before 2025-06-18", initialize("2025-03-26") + "\n" + initialized + "\n[" + `{"jsonrpc":"2.0","id":2,"method":"ping"},` + toolsList + "]\n", 0, []string{"1", "2", "3"}, "", badLine{}},
		{"batch from 2025-06-18 on", initialize("2025-06-18") + "\n" + initialized + "\n[" + `{"jsonrpc":"2.0","id":2,"method":"ping"},` + toolsList + "]\n" + `{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n", 0, []string{"1", "4", "null"}, "", badLine{3, -32600}},
		{"batch before initialize", "[" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "]\n" + initialize("2025-03-26") + "\n", 0, []string{"1", "null"}, "", badLine{1, -32600}},
		{"batch with a member that is not a message", initialize("2025-03-26") + "\n" + initialized + "\n[1]\n" + toolsList + "\n", 0, []string{"1", "3", "null"}, "", badLine{3, -32600}},
		{"byte order mark, blank lines counted", "\uFEFF" + initialize("2025-06-18") + "\n\n \n{\n" + toolsList + "\n", 0, []string{"1", "3", "null"}, "", badLine{4, -32700}},
		{"line over MaxLineLength", initialize("2025-06-18") + "\n" + ping(2, 10) + "\n" + ping(3, 5000) + "\n" + ping(4, 10) + "\n", 1024, []string{"1", "2"}, "maximum line length", badLine{}},
		{"lines under MaxLineLength", initialize("2025-06-18") + "\n" + ping(2, 800) + "\n" + ping(3, 800) + "\n", 1024, []string{"1", "2", "3"}, "", badLine{}},
		{"message of MaxLineLength", initialize("2025-06-18") + "\n" + ping(2, 1024-len(ping(2, 0))) + "\r\n" + ping(3, 10) + "\n", 1024, []string{"1", "2", "3"}, "", badLine{}},
		{"message one byte over MaxLineLength", initialize("2025-06-18") + "\n" + ping(2, 1025-len(ping(2, 0))) + "\n" + ping(3, 10) + "\n", 1024, []string{"1"}, "maximum line length", badLine{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			server, err := mcpserver.New(mcpserver.Config{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
			defer cancel()
			var out syncBuffer
			err = server.Run(ctx, &mcpserver.StdioTransport{In: strings.NewReader(c.input), Out: &out, MaxLineLength: c.maxLine})
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the session did not end in %v; wrote:\n%s", hangLimit, out.String())
			}
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Errorf("Run = %v, want error %q", err, c.wantErr)
			}
			resps := responses(t, out.String())
			if got := ids(resps); !slices.Equal(got, c.want) {
				t.Errorf("answered IDs %v, want %v; wrote:\n%s", got, c.want, out.String())
			}
			if c.bad.line > 0 {
				var e struct{ Code int }
				r := resps["null"]
				if json.Unmarshal(r["error"], &e) != nil || e.Code != c.bad.code || !strings.Contains(string(r["error"]), fmt.Sprintf("input line %d:", c.bad.line)) {
					t.Errorf("the bad line was answered %s, want code %d naming input line %d", r["error"], c.bad.code, c.bad.line)
				}
			}
			if r, ok := resps["2"]; ok && c.name == "scripted session" {
				var res mcp.CallToolResult
				if err := json.Unmarshal(r["result"], &res); err != nil || res.IsError || !strings.Contains(string(r["result"]), "締切") {
					t.Errorf("search_memory answered %s", r["result"])
				}
			}
		})
	}
}

// toolServer is an MCP server with one tool, "t", running handler.
func toolServer(handler func(ctx context.Context, req *mcp.CallToolRequest) error) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "t"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, handler(ctx, req)
	})
	return s
}

const callT = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{}}}`

// TestStdioTransportCancel: a request that is never answered keeps the
// session open after end of input until the context is cancelled.
func TestStdioTransportCancel(t *testing.T) {
	started := make(chan struct{})
	server := toolServer(func(ctx context.Context, _ *mcp.CallToolRequest) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	input := strings.Join([]string{initialize("2025-06-18"), initialized, callT}, "\n") + "\n"
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, &mcpserver.StdioTransport{In: strings.NewReader(input), Out: &out})
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("Run = %v before the tool ran", err)
	case <-time.After(hangLimit):
		t.Fatal("the tool did not start")
	}
	select {
	case err := <-done:
		t.Fatalf("Run = %v at end of input with a request unanswered", err)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(hangLimit):
		t.Fatal("cancelling did not end the session")
	}
	if got := ids(responses(t, out.String())); !slices.Equal(got, []string{"1"}) {
		t.Errorf("answered IDs %v, want [1]", got)
	}
}

// TestStdioTransportServerRequest: a tool that asks the client something
// after end of input cannot be answered; the session ends instead of waiting.
func TestStdioTransportServerRequest(t *testing.T) {
	server := toolServer(func(ctx context.Context, req *mcp.CallToolRequest) error {
		_, err := req.Session.ListRoots(ctx, nil)
		return err
	})
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	var out syncBuffer
	input := strings.Join([]string{initialize("2025-06-18"), initialized, callT}, "\n") + "\n"
	err := server.Run(ctx, &mcpserver.StdioTransport{In: strings.NewReader(input), Out: &out})
	if err != nil {
		t.Fatalf("Run = %v; wrote:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), `"method":"roots/list"`) {
		t.Errorf("the server did not ask for roots; wrote:\n%s", out.String())
	}
}

// TestStdioTransportClosesInput: a session ending at end of input closes
// its input, as the SDK's stdio transport closes stdin.
func TestStdioTransportClosesInput(t *testing.T) {
	server := toolServer(func(ctx context.Context, _ *mcp.CallToolRequest) error { return nil })
	in := &closeRecorder{Reader: strings.NewReader(initialize("2025-06-18") + "\n")}
	ss, err := server.Connect(context.Background(), &mcpserver.StdioTransport{In: in, Out: io.Discard}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Wait = %v", err)
		}
	case <-time.After(hangLimit):
		ss.Close()
		t.Fatal("the session did not end at end of input")
	}
	if !in.closed() {
		t.Error("the input was not closed")
	}
}

type closeRecorder struct {
	io.Reader
	mu sync.Mutex
	n  int
}

func (c *closeRecorder) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return nil
}

func (c *closeRecorder) closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n > 0
}
