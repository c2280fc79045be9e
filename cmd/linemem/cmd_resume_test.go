package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// resumeSideChat writes a LINE .txt export with one message on each of days
// consecutive days, which chunk into days sessions.
func resumeSideChat(t *testing.T, days int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[LINE] Chat history with Ken\nSaved on: 2024/03/01 21:03\n\n")
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range days {
		d := day.AddDate(0, 0, i)
		fmt.Fprintf(&b, "%s(%s)\n09:%02d\tKen\tmessage of day %d\n\n", d.Format("2006/01/02"), d.Format("Mon"), i%60, i)
	}
	path := filepath.Join(t.TempDir(), "ken.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestResumeAfterKillIsFast kills summarize (then embed) with SIGKILL while
// its second request is in flight, and reruns the command: the claim the
// killed process left is taken over at once (its PID is gone from this host),
// so the resume of the 20 items left takes seconds, not cache.ClaimStale per
// item nor the ten minutes a claim once lasted.
func TestResumeAfterKillIsFast(t *testing.T) {
	const days = 21
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"summarize", []string{"summarize", "--provider", "openai"}},
		{"embed", []string{"embed", "--provider", "openai", "--rep", "raw_text", "--dimensions", "8", "--batch", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := ingestSideDB(t)
			ingestSideMust(t, "ingest", "--db", db, resumeSideChat(t, days))
			var requests atomic.Int32
			inFlight := make(chan struct{}, 1)
			_, answer := providerSideAPI(t)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if requests.Add(1) == 2 {
					io.Copy(io.Discard, r.Body) // lets the server notice the client's end
					inFlight <- struct{}{}
					<-r.Context().Done() // until the client is killed
					return
				}
				proxyTo(t, answer, w, r)
			}))
			t.Cleanup(ts.Close)
			args := append(append([]string(nil), c.args...), "--db", db, "--base-url", ts.URL, "--allow-remote", "--interval", "0")

			child := exec.Command(os.Args[0], args...)
			child.Env = append(os.Environ(), mcpMainEnv+"=1")
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-inFlight:
			case <-time.After(60 * time.Second):
				child.Process.Kill()
				t.Fatal("the second request never came")
			}
			if err := child.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			child.Wait()

			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			resume := exec.CommandContext(ctx, os.Args[0], args...)
			resume.Env = child.Env
			start := time.Now()
			out, err := resume.CombinedOutput()
			took := time.Since(start)
			if err != nil {
				t.Fatalf("resume: %v after %v\n%s", err, took, out)
			}
			if took >= 10*time.Second {
				t.Errorf("resume of %d items took %v, want < 10 s\n%s", days-1, took, out)
			}
			if want := fmt.Sprintf("%d total, 1 already stored, %d done", days, days-1); !strings.Contains(string(out), want) ||
				!strings.Contains(string(out), "took over 1 claim(s)") {
				t.Errorf("resume output lacks %q and the takeover:\n%s", want, out)
			}
		})
	}
}

// proxyTo forwards r to the server at url and copies its answer to w.
func proxyTo(t *testing.T, url string, w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, url+r.URL.Path, r.Body)
	if err != nil {
		t.Error(err)
		return
	}
	req.Header = r.Header.Clone()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	io.Copy(w, res.Body)
}

// TestIncompleteSummaries: a response with status "incomplete" (the output
// limit was reached) is stored apart, counted in the run's line and by stats,
// not sent again by a plain rerun, and resent with a larger budget under
// --retry-incomplete, which then stores whole summaries.
func TestIncompleteSummaries(t *testing.T) {
	const days = 3
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, resumeSideChat(t, days))
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		var body struct {
			MaxOutputTokens int `json:"max_output_tokens"`
		}
		raw, _ := io.ReadAll(r.Body)
		json.Unmarshal(raw, &body)
		status, details := "completed", "null"
		if body.MaxOutputTokens < 400 {
			status, details = "incomplete", `{"reason":"max_output_tokens"}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"resp_1","object":"response","created_at":1,"status":%[1]q,"incomplete_details":%[2]s,"model":"gpt-4o-mini-2024-07-18",
			"output":[{"type":"message","id":"m","status":%[1]q,"role":"assistant","content":[{"type":"output_text","text":"要約 %[3]d","annotations":[]}]}],
			"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`,
			status, details, body.MaxOutputTokens)
	}))
	t.Cleanup(ts.Close)
	args := []string{"summarize", "--provider", "openai", "--db", db, "--base-url", ts.URL, "--allow-remote", "--interval", "0", "--max-output-tokens", "100"}
	stats := func() (s struct {
		Summaries  int `json:"summaries"`
		Incomplete int `json:"incomplete_summaries"`
	}) {
		if err := json.Unmarshal([]byte(ingestSideMust(t, "stats", "--db", db, "--json")), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		extra                   []string
		line                    string
		requests                int32
		summaries, incompleteAt int
	}{
		{nil, fmt.Sprintf("summaries: %d total, 0 already stored, 0 done, 0 from cache, 0 failed, %d incomplete", days, days), days, 0, days},
		{nil, fmt.Sprintf("summaries: %d total, 0 already stored, 0 done, 0 from cache, 0 failed, %d incomplete", days, days), 0, 0, days},
		{[]string{"--retry-incomplete"}, fmt.Sprintf("summaries: %d total, 0 already stored, %d done, 0 from cache, 0 failed\n", days, days), days, days, 0},
	} {
		requests.Store(0)
		code, out, stderr := ingestSideRun(t, append(append([]string(nil), args...), c.extra...)...)
		if code != 0 || !strings.Contains(out, c.line) || requests.Load() != c.requests {
			t.Errorf("%v: exit %d, %d requests (want %d)\n%s%s\nwant the line %q", c.extra, code, requests.Load(), c.requests, out, stderr, c.line)
		}
		if s := stats(); s.Summaries != c.summaries || s.Incomplete != c.incompleteAt {
			t.Errorf("%v: stats %+v, want %d summaries and %d incomplete", c.extra, s, c.summaries, c.incompleteAt)
		}
	}
	if out := ingestSideMust(t, "stats", "--db", db); strings.Contains(out, "Incomplete") {
		t.Errorf("stats still shows incomplete summaries:\n%s", out)
	}
}

// TestDryRunRetryIncomplete: a dry run counts the stored incomplete
// summaries; with --retry-incomplete they are to be resent, and the estimate
// includes them at the retry's output budget (retryBudgetFactor ×
// --max-output-tokens each); without it they are left alone. Nothing is sent.
func TestDryRunRetryIncomplete(t *testing.T) {
	const days, maxOut = 3, 100
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, resumeSideChat(t, days))
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"resp_1","object":"response","created_at":1,"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"model":"gpt-4o-mini-2024-07-18",
			"output":[{"type":"message","id":"m","status":"incomplete","role":"assistant","content":[{"type":"output_text","text":"要約","annotations":[]}]}],
			"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`)
	}))
	t.Cleanup(ts.Close)
	args := []string{"summarize", "--provider", "openai", "--db", db, "--base-url", ts.URL, "--interval", "0", "--max-output-tokens", strconv.Itoa(maxOut)}
	ingestSideMust(t, append(args, "--allow-remote")...)
	requests.Store(0)
	for _, c := range []struct {
		extra []string
		want  []string
	}{
		{nil, []string{
			fmt.Sprintf("%d total, 0 already stored, 0 in cache, 0 to process locally in 0 distinct inputs", days),
			fmt.Sprintf("incomplete summaries left alone (--retry-incomplete resends them): %d", days),
		}},
		{[]string{"--retry-incomplete"}, []string{
			fmt.Sprintf("%d total, 0 already stored, 0 in cache, %d to process locally in %d distinct inputs", days, days, days),
			fmt.Sprintf("incomplete summaries to resend with %d× the output budget: %d", retryBudgetFactor, days),
			fmt.Sprintf(", output ≤ %d\n", days*retryBudgetFactor*maxOut),
		}},
	} {
		out := ingestSideMust(t, append(append(append([]string(nil), args...), "--dry-run"), c.extra...)...)
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("--dry-run %v lacks %q:\n%s", c.extra, want, out)
			}
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("the dry runs sent %d requests", n)
	}
}

// TestEmbeddingsShortAnswer: an answer with fewer vectors than inputs
// stores nothing for the batch: it is split until each input stands alone,
// and each input the server still answers short is counted as failed with
// the reason, so a rerun sends it again.
func TestEmbeddingsShortAnswer(t *testing.T) {
	const days = 4
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_ORG_ID", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, resumeSideChat(t, days))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Input []string `json:"input"`
		}
		raw, _ := io.ReadAll(r.Body)
		json.Unmarshal(raw, &body)
		var data []string
		for i := range len(body.Input) - 1 { // one vector short
			data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[1,0,0,0,0,0,0,1]}`, i))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"object":"list","data":[%s],"model":"text-embedding-3-small","usage":{"prompt_tokens":3,"total_tokens":3}}`, strings.Join(data, ","))
	}))
	t.Cleanup(ts.Close)
	code, out, _ := ingestSideRun(t, "embed", "--provider", "openai", "--rep", "raw_text", "--dimensions", "8", "--batch", "4",
		"--db", db, "--base-url", ts.URL, "--allow-remote", "--interval", "0", "--max-failures", "-1")
	want := fmt.Sprintf("%d total, 0 already stored, 0 done, 0 from cache, %d failed", days, days)
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "answer holds 0 embeddings for 1 inputs") {
		t.Errorf("exit %d\n%s\nwant exit 1, %q and the reason", code, out, want)
	}
	if s := ingestSideMust(t, "stats", "--db", db); strings.Contains(s, "raw_text vectors") {
		t.Errorf("vectors stored from short answers:\n%s", s)
	}
}
