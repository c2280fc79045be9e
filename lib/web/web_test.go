package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/web"
	"github.com/linemem/linemem/lib/workbench"
)

const token = "test-token"

func newServer(t *testing.T, logw io.Writer) (*httptest.Server, *workbench.Bench) {
	t.Helper()
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	srv, err := web.New(web.Options{Store: st, Token: token, Log: log.New(logw, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, workbench.Open(st)
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, u, tok, annotator string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("X-CSRF-Token", tok)
	}
	if annotator != "" {
		req.AddCookie(&http.Cookie{Name: "linemem_annotator", Value: url.QueryEscape(annotator)})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestPagesEscapeMessagesAndKeepChatTextOutOfTheLog(t *testing.T) {
	var logs bytes.Buffer
	ts, _ := newServer(t, &logs)
	code, body := get(t, ts.URL+"/search?q="+url.QueryEscape("script これ貼ったら"))
	if code != http.StatusOK {
		t.Fatalf("search: %d %s", code, body)
	}
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;<mark>script</mark>&gt;alert(&#39;x&#39;)") {
		t.Errorf("the <script> message is not shown as escaped text with the match marked:\n%s", body)
	}
	for _, path := range []string{"/judge", "/judge/w1", "/judge/w2?reveal=1", "/agreement", "/assets/app.css", "/assets/judge.js"} {
		if code, body := get(t, ts.URL+path); code != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, code, body)
		}
	}
	if code, _ := get(t, ts.URL+"/judge/nope"); code != http.StatusNotFound {
		t.Errorf("GET /judge/nope: %d, want 404", code)
	}
	for _, secret := range []string{"script", "これ", "q=", "花見", "w1"} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("request log contains %q:\n%s", secret, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "GET /search 200") {
		t.Errorf("request log lacks the route line:\n%s", logs.String())
	}
}

func TestPostsNeedTheCSRFTokenAndAnAnnotator(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w1", false)
	row := map[string]any{"qid": "w1", "chunk_id": v.Rows[0].ChunkID, "rel": 2}
	cases := []struct {
		name, tok, ann string
		body           any
		want           int
	}{
		{"no token", "", "A", row, http.StatusForbidden},
		{"wrong token", "nope", "A", row, http.StatusForbidden},
		{"no annotator", token, "", row, http.StatusBadRequest},
		{"unknown chunk", token, "A", map[string]any{"qid": "w1", "chunk_id": "zz", "rel": 1}, http.StatusNotFound},
		{"rel 3", token, "A", map[string]any{"qid": "w1", "chunk_id": v.Rows[0].ChunkID, "rel": 3}, http.StatusBadRequest},
		{"good", token, "A", row, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := post(t, ts.URL+"/api/label", c.tok, c.ann, c.body); got != c.want {
				t.Errorf("status %d, want %d", got, c.want)
			}
		})
	}
	labels, _ := bench.Labels("A")
	if len(labels) != 1 || labels["w1"][v.Rows[0].ChunkID] != 2 {
		t.Errorf("stored %v, want only the good label", labels)
	}
	if got := post(t, ts.URL+"/api/decide", token, "A", map[string]any{"qid": "w1", "keep": false}); got != http.StatusOK {
		t.Errorf("decide: %d", got)
	}
	if d, _ := bench.Decisions("A"); d["w1"] {
		t.Errorf("decision %v, want w1 dropped", d)
	}
}

func TestNonLoopbackHostIsRefused(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/search", nil)
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host attacker.example: %d, want 403", resp.StatusCode)
	}
	for addr, want := range map[string]bool{"127.0.0.1:0": true, "localhost:8080": true, "[::1]:9": true, "0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false} {
		if got, err := web.IsLoopback(addr); err != nil || got != want {
			t.Errorf("IsLoopback(%q) = %v, %v; want %v", addr, got, err, want)
		}
	}
}

func TestJudgePageIsBlindUntilRevealed(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	_, blind := get(t, ts.URL+"/judge/w2")
	_, open := get(t, ts.URL+"/judge/w2?reveal=1")
	for _, origin := range []string{`class="origin"`, workbenchtest.Retriever + " #", `class="evmsg`} {
		if strings.Contains(blind, origin) {
			t.Errorf("blind page shows %q", origin)
		}
		if !strings.Contains(open, origin) {
			t.Errorf("revealed page lacks %q", origin)
		}
	}
	// The question's evidence items, with how they matched, are shown either way.
	if !strings.Contains(blind, "一泊12000円") || !strings.Contains(blind, "exact") {
		t.Errorf("blind page lacks the evidence items")
	}
}
