package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
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
