package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

const providerSideKey = "sk-test-CLIKEY-0a1b2c3d4e5f60718293"

// providerSideRun runs linemem in-process and returns its exit code and output.
func providerSideRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runMain(&environment{stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// providerSideDB ingests the synthetic corpus into a fresh database and
// returns its path and chunk count.
func providerSideDB(t *testing.T) (string, int) {
	t.Helper()
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	db := filepath.Join(t.TempDir(), "linemem.db")
	if code, _, stderr := providerSideRun(t, "ingest", "--db", db, filepath.Join("..", "..", "data", "synthetic", "sources")); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	return db, len(chunks)
}

// providerSideAPI is an OpenAI-compatible server that counts requests and
// answers /responses and /embeddings (dimension 8).
// remoteURL names a service that is not on loopback, so a provider there
// is remote: TEST-NET-1 (RFC 5737), never routed. A refusal never dials it.
const remoteURL = "http://192.0.2.1:9/v1"

func providerSideAPI(t *testing.T) (*atomic.Int32, string) {
	var n atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var body struct {
			Input any `json:"input"`
		}
		raw, _ := io.ReadAll(r.Body)
		json.Unmarshal(raw, &body)
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/responses") {
			fmt.Fprint(w, `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4o-mini-2024-07-18",
				"output":[{"type":"message","id":"m","status":"completed","role":"assistant","content":[{"type":"output_text","text":"要約","annotations":[]}]}],
				"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`)
			return
		}
		inputs, _ := body.Input.([]any)
		var data []string
		for i := range inputs {
			data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[1,%d,0,0,0,0,0,1]}`, i, i%5))
		}
		fmt.Fprintf(w, `{"object":"list","data":[%s],"model":"text-embedding-3-small","usage":{"prompt_tokens":3,"total_tokens":3}}`, strings.Join(data, ","))
	}))
	t.Cleanup(ts.Close)
	return &n, ts.URL
}

func synthSummaries() string {
	return filepath.Join("..", "..", "data", "synthetic", "summaries.jsonl")
}

func TestSummarizeFileProviderOffline(t *testing.T) {
	db, chunks := providerSideDB(t)
	code, out, stderr := providerSideRun(t, "summarize", "--db", db, "--provider", "file", "--summaries", synthSummaries(), "--dry-run")
	if code != 0 {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	want := fmt.Sprintf("%d total, 0 already stored, 0 in cache, %d to process locally", chunks, chunks)
	if !strings.Contains(out, want) || !strings.Contains(out, "dry run: nothing sent") {
		t.Errorf("dry run printed:\n%s\nwant %q", out, want)
	}
	if stats := providerSideStats(t, db); stats.Summaries != 0 {
		t.Fatalf("dry run stored %d summaries", stats.Summaries)
	}
	code, out, stderr = providerSideRun(t, "summarize", "--db", db, "--provider", "file", "--summaries", synthSummaries())
	if code != 0 {
		t.Fatalf("run: exit %d: %s%s", code, out, stderr)
	}
	if want := fmt.Sprintf("summaries: %d total, 0 already stored, %d done, 0 from cache, 0 failed", chunks, chunks); !strings.Contains(out, want) {
		t.Errorf("report:\n%s\nwant %q", out, want)
	}
	if !strings.Contains(stderr, fmt.Sprintf("summarize %d/%d (100.0%%)", chunks, chunks)) {
		t.Errorf("progress:\n%s", stderr)
	}
	if stats := providerSideStats(t, db); stats.Summaries != chunks {
		t.Errorf("%d summaries stored, want %d", stats.Summaries, chunks)
	}
	_, out, _ = providerSideRun(t, "summarize", "--db", db, "--provider", "file", "--summaries", synthSummaries())
	if want := fmt.Sprintf("%d already stored, 0 done", chunks); !strings.Contains(out, want) {
		t.Errorf("rerun:\n%s", out)
	}
}

func providerSideStats(t *testing.T, db string) (s struct{ Summaries int }) {
	t.Helper()
	_, out, _ := providerSideRun(t, "stats", "--db", db, "--json")
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	return s
}

func TestSummarizeRemoteNeedsAllowRemote(t *testing.T) {
	db, chunks := providerSideDB(t)
	code, _, stderr := providerSideRun(t, "summarize", "--db", db, "--provider", "openai", "--base-url", remoteURL)
	if code == 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"provider openai is remote", fmt.Sprintf("raw_text of %d chunks", chunks), remoteURL + "/responses", "gpt-4o-mini", "Nothing was sent", "--allow-remote"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("refusal lacks %q:\n%s", want, stderr)
		}
	}
	code, out, _ := providerSideRun(t, "summarize", "--db", db, "--provider", "openai", "--base-url", remoteURL, "--dry-run")
	if code != 0 || !strings.Contains(out, "estimated cost: ≈ $") || !strings.Contains(out, fmt.Sprintf("output ≤ %d", 700*chunks)) {
		t.Errorf("dry run: exit %d:\n%s", code, out)
	}
	// A server on loopback (Ollama, vLLM) is this machine: no flag needed.
	requests, url := providerSideAPI(t)
	code, out, stderr = providerSideRun(t, "summarize", "--db", db, "--provider", "openai", "--base-url", url, "--interval", "0")
	if code != 0 || int(requests.Load()) != chunks {
		t.Errorf("loopback server without --allow-remote: exit %d, %d requests for %d chunks:\n%s%s", code, requests.Load(), chunks, out, stderr)
	}
}

func TestSummarizeRemoteKeepsKeyOutOfDB(t *testing.T) {
	db, chunks := providerSideDB(t)
	requests, url := providerSideAPI(t)
	code, out, stderr := providerSideRun(t, "summarize", "--db", db, "--provider", "openai", "--base-url", url,
		"--allow-remote", "--interval", "0", "--redact", "all")
	if code != 0 || int(requests.Load()) != chunks {
		t.Fatalf("exit %d, %d requests for %d chunks:\n%s%s", code, requests.Load(), chunks, out, stderr)
	}
	if strings.Contains(out+stderr, providerSideKey) {
		t.Error("output shows the API key")
	}
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(providerSideKey)) || bytes.Contains(b, []byte("CLIKEY")) {
			t.Errorf("%s holds the API key", f)
		}
		if bytes.Contains(b, []byte("gpt-4o-mini-2024-07-18")) {
			t.Logf("%s records the returned model", filepath.Base(f))
		}
	}
}
