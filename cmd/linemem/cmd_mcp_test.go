package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
)

// mcpMainEnv makes the test binary run linemem's main instead of the tests,
// so a test can start `linemem mcp` as a real subprocess.
const mcpMainEnv = "LINEMEM_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mcpMainEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestMCPStdio starts `linemem mcp` as a subprocess and talks to it over
// stdio with the SDK's client, as an assistant would.
func TestMCPStdio(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	logFile := filepath.Join(t.TempDir(), "calls.jsonl")
	cmd := exec.Command(os.Args[0], "mcp", "--db", db, "--log", logFile, "--redact", "phone")
	cmd.Env = append(os.Environ(), mcpMainEnv+"=1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != mcpserver.Name {
		t.Errorf("server name %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 4 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
	}
	bad, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolSearch, Arguments: map[string]any{"question": "締切", "k": 0}})
	if err != nil || !bad.IsError {
		t.Fatalf("k=0: error %v, result %+v; want a tool error", err, bad)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolSearch, Arguments: map[string]any{"question": "ポスターの締切", "k": 2}})
	if err != nil || res.IsError {
		t.Fatalf("search_memory: %v %+v", err, res)
	}
	var found mcpserver.SearchOutput
	decodeStructured(t, res, &found)
	if len(found.Results) == 0 || found.Results[0].Source != "hanako.txt" {
		t.Fatalf("search_memory = %+v", found)
	}
	id := found.Results[0].Messages[0].ID
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolMessages, Arguments: map[string]any{"message_id": id, "before": 0, "after": 3}})
	if err != nil || res.IsError {
		t.Fatalf("get_messages: %v %+v", err, res)
	}
	var msgs mcpserver.MessagesOutput
	decodeStructured(t, res, &msgs)
	if len(msgs.Messages) != 4 || msgs.Messages[0].ID != id {
		t.Errorf("get_messages(%s, after 3) = %+v", id, msgs)
	}
	cs.Close()
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "\n"); n != 3 || !strings.Contains(string(log), `"tool":"get_messages"`) {
		t.Errorf("call log has %d lines:\n%s", n, log)
	}
}

// TestMCPPiped pipes a script into `linemem mcp`, as a user trying the
// server from a shell does: every request is answered before the server
// exits at end of input, and a line that is not JSON is answered with a
// parse error (id null) without ending the session.
func TestMCPPiped(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	session := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_memory","arguments":{"question":"ポスターの締切"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}
	cases := []struct {
		name   string
		input  []string
		code   int
		ids    []string // answered, in any order
		stderr string
	}{
		{"scripted session", session, 0, []string{"1", "2", "3"}, ""},
		{"no input", nil, 0, nil, ""},
		{"a line that is not JSON", append(session[:2:2], "tools/list", session[3]), 0, []string{"1", "3", "null"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "mcp", "--db", db)
			cmd.Env = append(os.Environ(), mcpMainEnv+"=1")
			var input string
			for _, line := range c.input {
				input += line + "\n"
			}
			cmd.Stdin = strings.NewReader(input)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("linemem mcp did not exit at end of input; wrote:\n%s", stdout.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(stderr.String(), c.stderr) {
				t.Errorf("exit %d (%v), stderr %q; want exit %d and %q", code, err, stderr.String(), c.code, c.stderr)
			}
			var ids []string
			for line := range strings.Lines(stdout.String()) {
				var resp struct {
					ID     json.RawMessage `json:"id"`
					Result json.RawMessage `json:"result"`
					Error  *struct{ Code int }
				}
				err := json.Unmarshal([]byte(line), &resp)
				if bad := string(resp.ID) == "null"; err != nil || !bad && resp.Result == nil || bad && (resp.Error == nil || resp.Error.Code != -32700) {
					t.Errorf("neither a result nor the parse error of a bad line: %s (%v)", line, err)
				}
				ids = append(ids, string(resp.ID))
			}
			slices.Sort(ids)
			if !slices.Equal(ids, c.ids) {
				t.Errorf("answered IDs %v, want %v; wrote:\n%s", ids, c.ids, stdout.String())
			}
		})
	}
}

func decodeStructured(t *testing.T, res *mcp.CallToolResult, out any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func TestMCPUsage(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	emptyToken := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(emptyToken, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	looseToken := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(looseToken, []byte("0123456789abcdef0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(looseToken, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"http on a public address", []string{"mcp", "--db", db, "--http", "0.0.0.0:8765"}, 2, "loopback only"},
		{"http without a port", []string{"mcp", "--db", db, "--http", "127.0.0.1"}, 2, "HOST:PORT"},
		{"unknown source", []string{"mcp", "--db", db, "--sources", "nobody.txt"}, 1, `no source named "nobody.txt"`},
		{"unknown redaction kind", []string{"mcp", "--db", db, "--redact", "faces"}, 2, "unknown kind"},
		{"missing database", []string{"mcp", "--db", filepath.Join(t.TempDir(), "none.db")}, 1, "no such database"},
		{"token without http", []string{"mcp", "--db", db, "--token-file", emptyToken}, 2, "--token-file goes with --http"},
		{"empty token file", []string{"mcp", "--db", db, "--http", "127.0.0.1:0", "--token-file", emptyToken}, 2, "the token file is empty"},
		{"token file others may read", []string{"mcp", "--db", db, "--http", "127.0.0.1:0", "--token-file", looseToken}, 2, "run `chmod 600 " + looseToken + "`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := ingestSideRun(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
		})
	}
}

// TestMCPHTTP starts `linemem mcp --http 127.0.0.1:0` and calls a tool over
// the streamable HTTP transport.
func TestMCPHTTP(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	cmd := exec.Command(os.Args[0], "mcp", "--db", db, "--http", "127.0.0.1:0", "--sources", "club.txt")
	cmd.Env = append(os.Environ(), mcpMainEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(line, "http://")
	if start < 0 {
		t.Fatalf("no URL in %q", line)
	}
	endpoint := strings.Fields(line[start:])[0]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolSources})
	if err != nil || res.IsError {
		t.Fatalf("list_sources: %v %+v", err, res)
	}
	var src mcpserver.SourcesOutput
	decodeStructured(t, res, &src)
	if len(src.Sources) != 1 || src.Sources[0].Label != "club.txt" {
		t.Errorf("list_sources over HTTP with --sources club.txt = %+v", src)
	}
}
