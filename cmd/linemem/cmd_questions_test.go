package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/lib/questions/draft"
)

// draftAPI is an OpenAI-compatible Responses endpoint that answers each
// window with one question citing the first two message IDs it was sent,
// and keeps every request body.
func draftAPI(t *testing.T) (*atomic.Int32, *[]map[string]any, string) {
	var n atomic.Int32
	var mu sync.Mutex
	var bodies []map[string]any
	ids := regexp.MustCompile(`\[([0-9a-f]{16})\]`)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(raw, &body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		input, _ := body["input"].(string)
		found := ids.FindAllStringSubmatch(input, 2)
		answer := fmt.Sprintf(`{"questions":[{"question":"質問 %s","type":"named_entity","answer":"答え","evidence":[{"message_id":%q,"role":"answer"},{"message_id":%q,"role":"support"},{"message_id":"0000000000000000","role":"answer"}]}]}`,
			found[0][1], found[0][1], found[1][1])
		text, _ := json.Marshal(answer)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4o-mini-2024-07-18",
			"output":[{"type":"message","id":"m","status":"completed","role":"assistant","content":[{"type":"output_text","text":%s,"annotations":[]}]}],
			"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`, text)
	}))
	t.Cleanup(ts.Close)
	return &n, &bodies, ts.URL
}

func TestQuestionsDraftOpenAI(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-FAKE")
	t.Setenv("OPENAI_ORG_ID", "")
	requests, bodies, url := draftAPI(t)
	t.Setenv("OPENAI_BASE_URL", url)
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	out := filepath.Join(dir, "candidates.jsonl")
	args := []string{"questions", "draft", "--db", db, "--provider", "openai", "--out", out, "--quiet"}

	// Without --allow-remote nothing is sent.
	code, _, stderr := providerSideRun(t, append(args, "--base-url", remoteURL)...)
	if code == 0 || !strings.Contains(stderr, "--allow-remote") || requests.Load() != 0 {
		t.Fatalf("without --allow-remote: exit %d, %d requests, %s", code, requests.Load(), stderr)
	}
	// --dry-run plans and sends nothing.
	code, stdout, stderr := providerSideRun(t, append(args, "--dry-run")...)
	if code != 0 || !strings.Contains(stdout, "dry run: nothing sent") || !strings.Contains(stdout, "windows: 2 (0 in cache, 2 to send)") || requests.Load() != 0 {
		t.Fatalf("dry run: exit %d, %d requests\n%s%s", code, requests.Load(), stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("--dry-run wrote %s", out)
	}
	// Sent: one request per source window, with our prompt as instructions.
	code, _, stderr = providerSideRun(t, append(args, "--allow-remote", "--redact", "phone")...)
	if code != 0 || requests.Load() != 2 {
		t.Fatalf("allow-remote: exit %d, %d requests, %s", code, requests.Load(), stderr)
	}
	for _, b := range *bodies {
		if b["instructions"] != draft.Prompt() || !strings.Contains(b["input"].(string), "作る質問の数: 3") {
			t.Errorf("request instructions/input not the drafting prompt: %v", b)
		}
	}
	if !strings.Contains(stderr, `evidence message "0000000000000000" is not in the window`) {
		t.Errorf("the invented message ID is not reported:\n%s", stderr)
	}
	data, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d candidates, want 2:\n%s", len(lines), data)
	}
	var c draft.Candidate
	if err := json.Unmarshal([]byte(lines[0]), &c); err != nil {
		t.Fatal(err)
	}
	if c.PromptVersion != draft.PromptVersion || c.PromptSHA256 != draft.PromptSHA256() || c.Provider != "openai" || c.ReturnedModel != "gpt-4o-mini-2024-07-18" ||
		len(c.Evidence) != 2 || c.Evidence[0].MessageID == "" || c.Evidence[0].TextPrefix == "" || c.Window == nil || c.Window.Redaction != "phone" {
		t.Errorf("candidate lacks its provenance or evidence: %+v", c)
	}
	// A rerun takes every answer from the cache.
	code, _, stderr = providerSideRun(t, append(args, "--allow-remote", "--redact", "phone")...)
	if code != 0 || requests.Load() != 2 || !strings.Contains(stderr, "0 sent, 2 from cache") {
		t.Errorf("rerun: exit %d, %d requests, %s", code, requests.Load(), stderr)
	}
	// The candidates pool as questions and evidence at once, matched exactly.
	pool := run(t, "gold", "pool", "--db", db, "--questions", out, "--evidence", out, "--depth", "0")
	if !strings.Contains(pool, "evidence items 4: 4 exact") {
		t.Errorf("pooling the candidates:\n%s", pool)
	}
}

func TestQuestionsDraftFileProvider(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	out := filepath.Join(dir, "c.jsonl")
	run(t, "questions", "draft", "--db", db, "--provider", "file", "--from", workbenchFile("evidence.jsonl"), "--out", out)
	data, _ := os.ReadFile(out)
	if n := strings.Count(string(data), `"provider":"file"`); n != 3 {
		t.Errorf("%d file candidates, want 3:\n%s", n, data)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"qid":"x","question":"q","type":"t","evidence":[{"source":"a"}]}`+"\n"), 0o644)
	code, _, stderr := providerSideRun(t, "questions", "draft", "--db", db, "--provider", "file", "--from", bad, "--out", out)
	if code != 1 || !strings.Contains(stderr, bad+":1:") {
		t.Errorf("bad file: exit %d, %s", code, stderr)
	}
	// Evidence quoting a chat the database does not hold is named, and nothing is written.
	unknown := filepath.Join(dir, "unknown.jsonl")
	os.WriteFile(unknown, []byte(`{"qid":"x","question":"q","type":"t","evidence":[{"source":"nope.txt","date":"2024-06-01","text_prefix":"a"}]}`+"\n"), 0o644)
	out2 := filepath.Join(dir, "c2.jsonl")
	code, _, stderr = providerSideRun(t, "questions", "draft", "--db", db, "--provider", "file", "--from", unknown, "--out", out2)
	if code != 1 || !strings.Contains(stderr, `evidence source "nope.txt" is not stored`) {
		t.Errorf("unknown source: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("unknown source: %s was written", out2)
	}
}
