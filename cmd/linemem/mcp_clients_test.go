package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/mcpserver"
)

// The end-to-end test of `linemem mcp` with independent clients: the
// official MCP Inspector CLI and the TypeScript SDK client, as pinned by
// internal/mcpclients/package-lock.json and installed into build/mcp-clients
// by scripts/setup-test-deps.sh (make test runs it). The chats are
// internal/mcpclients/chats (family.txt: 誕生日 in three of its four
// sessions) and, ingested while a session is open, internal/mcpclients/later.
var (
	mcpClientsSrc = filepath.Join("..", "..", "internal", "mcpclients")
	mcpClientsDir = filepath.Join("..", "..", "build", "mcp-clients")
)

// mcpClients returns build/mcp-clients with client.mjs copied in, skipping
// the test when Node.js is absent and failing it when the clients are not
// installed as the lockfile pins them.
func mcpClients(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: scripts/setup-test-deps.sh (run by make test) installs Node.js and the MCP clients")
	}
	want, err := os.ReadFile(filepath.Join(mcpClientsSrc, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(mcpClientsDir, "package-lock.json"))
	if _, errBin := os.Stat(filepath.Join(mcpClientsDir, "node_modules", ".bin", "mcp-inspector")); err != nil || errBin != nil || !bytes.Equal(got, want) {
		t.Fatalf("the MCP clients are not installed in %s as %s/package-lock.json pins them: run scripts/setup-test-deps.sh (make test does)", mcpClientsDir, mcpClientsSrc)
	}
	script, err := os.ReadFile(filepath.Join(mcpClientsSrc, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mcpClientsDir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs(mcpClientsDir)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// linememArgs is the command line that starts this test binary as linemem.
func linememArgs(args ...string) []string { return append([]string{os.Args[0]}, args...) }

// inspector runs the Inspector CLI on target (a command line, or a URL) with
// args and returns its stdout and whether it exited 0.
func inspector(t *testing.T, dir string, target []string, args ...string) ([]byte, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(dir, "node_modules", ".bin", "mcp-inspector"), append(append([]string{"--cli"}, target...), args...)...)
	cmd.Env = append(os.Environ(), mcpMainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("inspector %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out, err == nil
}

// inspectorCall calls tool with --tool-arg key=value pairs, as a person types
// them, and decodes the structured result into out; it fails the test on a
// tool error.
func inspectorCall(t *testing.T, dir string, target []string, tool string, out any, pairs ...string) {
	t.Helper()
	args := []string{"--method", "tools/call", "--tool-name", tool}
	for _, p := range pairs {
		args = append(args, "--tool-arg", p)
	}
	stdout, ok := inspector(t, dir, target, args...)
	var res struct {
		IsError           bool `json:"isError"`
		Content           []struct{ Text string }
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if !ok || json.Unmarshal(stdout, &res) != nil || res.IsError {
		t.Fatalf("inspector tools/call %s %v: exit ok %v, %s", tool, pairs, ok, stdout)
	}
	if err := json.Unmarshal(res.StructuredContent, out); err != nil {
		t.Fatalf("%s: %v in %s", tool, err, res.StructuredContent)
	}
}

// inspectorSession runs every tool with every argument through the
// Inspector CLI against target, the chats of internal/mcpclients/chats.
func inspectorSession(t *testing.T, dir string, target []string) {
	stdout, ok := inspector(t, dir, target, "--method", "tools/list")
	var list struct{ Tools []struct{ Name string } }
	if !ok || json.Unmarshal(stdout, &list) != nil || len(list.Tools) != 4 {
		t.Fatalf("tools/list: exit ok %v, %s", ok, stdout)
	}
	var out mcpserver.SearchOutput
	inspectorCall(t, dir, target, mcpserver.ToolSearch, &out, "question=誕生日", "k=3")
	if len(out.Results) != 3 {
		t.Errorf("search_memory question=誕生日 k=3: %d results, want 3", len(out.Results))
	}
	inspectorCall(t, dir, target, mcpserver.ToolSearch, &out, "question=誕生日", "k=5", "retriever=raw_text_bm25",
		"since=2024-03-01", "until=2024-06-30T23:59:59+09:00", "source=family.txt", "sender=自分")
	if len(out.Results) != 2 {
		t.Errorf("search_memory with every argument: %d results, want the 2 windows of March to June where 自分 wrote", len(out.Results))
	}
	for _, h := range out.Results {
		if h.Source != "family.txt" || h.Start < "2024-03-01" || h.Start > "2024-06-30T23:59:59" {
			t.Errorf("result %+v breaks the filters", h)
		}
	}
	if len(out.Results) == 0 {
		return
	}
	var chunk mcpserver.MessagesOutput
	inspectorCall(t, dir, target, mcpserver.ToolMessages, &chunk, "chunk_id="+out.Results[0].ChunkID)
	if len(chunk.Messages) != out.Results[0].Total {
		t.Errorf("get_messages chunk_id: %d messages, want %d", len(chunk.Messages), out.Results[0].Total)
	}
	var around mcpserver.MessagesOutput
	inspectorCall(t, dir, target, mcpserver.ToolMessages, &around, "message_id="+chunk.Messages[1].ID, "before=1", "after=0")
	if len(around.Messages) != 2 || around.Messages[1].ID != chunk.Messages[1].ID {
		t.Errorf("get_messages message_id before=1 after=0: %+v", around.Messages)
	}
	var src mcpserver.SourcesOutput
	inspectorCall(t, dir, target, mcpserver.ToolSources, &src)
	if len(src.Sources) != 1 || src.Sources[0].Chunks != 4 || src.Sources[0].Chat != "家族" {
		t.Errorf("list_sources: %+v, want family.txt, titled 家族, with 4 chunks", src.Sources)
	}
	var stats mcpserver.StatsOutput
	inspectorCall(t, dir, target, mcpserver.ToolStats, &stats)
	if stats.Sources != 1 || stats.Chunks != 4 {
		t.Errorf("memory_stats: %+v", stats)
	}
}

// tsClient is the TypeScript SDK client (internal/mcpclients/client.mjs).
type tsClient struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func newTSClient(t *testing.T, dir string) *tsClient {
	t.Helper()
	cmd := exec.Command("node", filepath.Join(dir, "client.mjs"))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
		}
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	return &tsClient{t: t, in: in, out: sc}
}

// do sends one command and decodes its answer into out; it returns the
// answer's error and code ("" and 0 when there is none).
func (c *tsClient) do(cmd map[string]any, out any) (string, float64) {
	c.t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatal(err)
	}
	if !c.out.Scan() {
		c.t.Fatalf("client.mjs ended without answering %s: %v", b, c.out.Err())
	}
	var failed struct {
		Error string
		Code  float64
	}
	json.Unmarshal(c.out.Bytes(), &failed)
	if failed.Error != "" {
		return failed.Error, failed.Code
	}
	if out != nil {
		if err := json.Unmarshal(c.out.Bytes(), out); err != nil {
			c.t.Fatalf("%s: %v", c.out.Bytes(), err)
		}
	}
	return "", 0
}

// call calls a tool and decodes its structured result into out.
func (c *tsClient) call(tool string, args map[string]any, out any) {
	c.t.Helper()
	var res struct {
		IsError           bool `json:"isError"`
		Content           []struct{ Text string }
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if e, _ := c.do(map[string]any{"op": "call", "name": tool, "arguments": args}, &res); e != "" || res.IsError {
		c.t.Fatalf("%s %v: error %q, result %+v", tool, args, e, res)
	}
	if err := json.Unmarshal(res.StructuredContent, out); err != nil {
		c.t.Fatal(err)
	}
}

// liveIngest checks, in the open session of c, that a chat ingested into db
// meanwhile is listed and searchable by its label.
func liveIngest(t *testing.T, c *tsClient, db string) {
	var src mcpserver.SourcesOutput
	c.call(mcpserver.ToolSources, nil, &src)
	if len(src.Sources) != 1 {
		t.Fatalf("before the ingest: %+v", src.Sources)
	}
	ingestSideMust(t, "ingest", "--db", db, filepath.Join(mcpClientsSrc, "later"))
	c.call(mcpserver.ToolSources, nil, &src)
	if len(src.Sources) != 2 || src.Sources[1].Label != "misaki.txt" {
		t.Errorf("list_sources after ingesting misaki.txt: %+v", src.Sources)
	}
	var out mcpserver.SearchOutput
	for _, source := range []string{"misaki.txt", "美咲"} {
		c.call(mcpserver.ToolSearch, map[string]any{"question": "旅館", "source": source, "k": 1}, &out)
		if len(out.Results) != 1 || out.Results[0].Source != "misaki.txt" || out.Results[0].Chat != "美咲" {
			t.Errorf("search_memory source=%s after the ingest: %+v", source, out.Results)
		}
	}
	var stats mcpserver.StatsOutput
	c.call(mcpserver.ToolStats, nil, &stats)
	if stats.Sources != 2 {
		t.Errorf("memory_stats after the ingest: %d sources, want 2", stats.Sources)
	}
}

// startHTTP starts `linemem mcp --http 127.0.0.1:0` with extra flags and
// returns its endpoint.
func startHTTP(t *testing.T, db string, flags ...string) string {
	t.Helper()
	args := linememArgs(append([]string{"mcp", "--db", db, "--http", "127.0.0.1:0"}, flags...)...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), mcpMainEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(line, "http://")
	if at < 0 {
		t.Fatalf("no URL in %q", line)
	}
	return strings.Fields(line[at:])[0]
}

func mcpClientsDB(t *testing.T) string {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join(mcpClientsSrc, "chats"))
	return db
}

func TestMCPClients(t *testing.T) {
	dir := mcpClients(t)
	t.Run("inspector over stdio", func(t *testing.T) {
		inspectorSession(t, dir, linememArgs("mcp", "--db", mcpClientsDB(t)))
	})
	t.Run("inspector over HTTP", func(t *testing.T) {
		inspectorSession(t, dir, []string{startHTTP(t, mcpClientsDB(t))})
	})
	t.Run("typescript sdk over stdio", func(t *testing.T) {
		db := mcpClientsDB(t)
		c := newTSClient(t, dir)
		var hello struct{ Instructions string }
		args := linememArgs("mcp", "--db", db)
		if e, _ := c.do(map[string]any{"op": "connect", "stdio": map[string]any{"command": args[0], "args": args[1:], "env": map[string]string{mcpMainEnv: "1"}}}, &hello); e != "" {
			t.Fatal(e)
		}
		var tools struct{ Tools []struct{ Name string } }
		if c.do(map[string]any{"op": "list"}, &tools); len(tools.Tools) != 4 {
			t.Errorf("tools/list: %+v", tools)
		}
		var out mcpserver.SearchOutput
		c.call(mcpserver.ToolSearch, map[string]any{"question": "誕生日", "k": 3}, &out)
		if len(out.Results) != 3 {
			t.Errorf("search_memory k=3: %d results", len(out.Results))
		}
		liveIngest(t, c, db)
	})
	t.Run("typescript sdk over HTTP with a token", func(t *testing.T) {
		db := mcpClientsDB(t)
		token := "e2e-token-0123456789abcdef"
		tokenFile := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		url := startHTTP(t, db, "--token-file", tokenFile)
		bearer := map[string]string{"Authorization": "Bearer " + token}
		cases := []struct {
			name    string
			headers map[string]string
			code    float64
		}{
			{"no token", nil, 401},
			{"another token", map[string]string{"Authorization": "Bearer not-the-token-0123456789"}, 401},
			{"another site's page", map[string]string{"Authorization": "Bearer " + token, "Origin": "http://evil.example"}, 403},
		}
		for _, cs := range cases {
			if e, code := newTSClient(t, dir).do(map[string]any{"op": "connect", "http": map[string]any{"url": url, "headers": cs.headers}}, nil); code != cs.code {
				t.Errorf("%s: connect answered code %v (%q), want %v", cs.name, code, e, cs.code)
			}
		}
		if stdout, ok := inspector(t, dir, []string{url}, "--method", "tools/list"); ok || bytes.Contains(stdout, []byte(mcpserver.ToolSearch)) {
			t.Errorf("the Inspector without the token was served: %s", stdout)
		}
		c := newTSClient(t, dir)
		if e, _ := c.do(map[string]any{"op": "connect", "http": map[string]any{"url": url, "headers": bearer}}, nil); e != "" {
			t.Fatal(e)
		}
		liveIngest(t, c, db)
	})
	t.Run("typescript sdk idle past --idle-timeout with its stream open", func(t *testing.T) {
		const idle = time.Second
		url := startHTTP(t, mcpClientsDB(t), "--idle-timeout", idle.String())
		c := newTSClient(t, dir)
		if e, _ := c.do(map[string]any{"op": "connect", "http": map[string]any{"url": url}}, nil); e != "" {
			t.Fatal(e)
		}
		time.Sleep(4 * idle)
		var out mcpserver.SearchOutput
		c.call(mcpserver.ToolSearch, map[string]any{"question": "誕生日", "k": 3}, &out)
		if len(out.Results) != 3 {
			t.Errorf("search_memory after %v idle with --idle-timeout %v: %d results, want 3", 4*idle, idle, len(out.Results))
		}
	})
}
