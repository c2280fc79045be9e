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
	// The question's evidence items, with how they matched, appear only with
	// the sources; the question and its reference answer always.
	if strings.Contains(blind, `class="evidence"`) || strings.Contains(blind, `<span class="tag">answer</span>`) {
		t.Errorf("blind page shows the evidence items")
	}
	if !strings.Contains(open, "一泊12000円") || !strings.Contains(open, "exact") {
		t.Errorf("revealed page lacks the evidence items")
	}
	_, w1 := get(t, ts.URL+"/judge/w1")
	if !strings.Contains(w1, `<bdi id="answer">自分（朝9時）</bdi>`) || !strings.Contains(w1, "花見の場所取りは誰がやることになった？") {
		t.Errorf("blind page lacks the question or its reference answer")
	}
}

// postBody posts body as annotator A with the token and returns the status,
// the Content-Type and the decoded {"error"} of the answer.
func postBody(t *testing.T, u string, body any) (int, string, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", token)
	req.AddCookie(&http.Cookie{Name: "linemem_annotator", Value: "A"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error string `json:"error"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Errorf("error answer %q is not a JSON object: %v", raw, err)
		}
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), e.Error
}

// TestLabelOutsideThePoolIsRefused: a label or a note is stored only for a
// chunk of the question's own pool; anything else is a 4xx with a JSON error
// naming the question and the chunk, and leaves the judgments as they were.
func TestLabelOutsideThePoolIsRefused(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	w1, _ := bench.View("", "w1", false)
	w2, _ := bench.View("", "w2", false)
	inW1 := map[string]bool{}
	for _, r := range w1.Rows {
		inW1[r.ChunkID] = true
	}
	other := "" // pooled for w2, not for w1
	for _, r := range w2.Rows {
		if !inW1[r.ChunkID] {
			other = r.ChunkID
			break
		}
	}
	if other == "" {
		t.Fatal("the fixture has no chunk pooled for w2 and not for w1")
	}
	cases := []struct {
		name, path string
		body       map[string]any
		fragments  []string // the error names these
	}{
		{"label of another question's chunk", "/api/label", map[string]any{"qid": "w1", "chunk_id": other, "rel": 2}, []string{other, `"w1"`, "pool"}},
		{"note on another question's chunk", "/api/note", map[string]any{"qid": "w1", "chunk_id": other, "note": "x"}, []string{other, `"w1"`, "pool"}},
		{"unknown question", "/api/label", map[string]any{"qid": "nope", "chunk_id": w1.Rows[0].ChunkID, "rel": 1}, []string{`"nope"`, "question"}},
		{"unknown chunk", "/api/label", map[string]any{"qid": "w1", "chunk_id": "zz", "rel": 1}, []string{`"zz"`, "chunk"}},
		{"relevance 3", "/api/label", map[string]any{"qid": "w1", "chunk_id": w1.Rows[0].ChunkID, "rel": 3}, []string{"0, 1 or 2", "3"}},
		{"no JSON object", "/api/label", nil, []string{"JSON object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any = c.body
			if c.body == nil {
				body = "not an object"
			}
			status, ctype, msg := postBody(t, ts.URL+c.path, body)
			if status < 400 || status >= 500 {
				t.Errorf("status %d, want 4xx", status)
			}
			if !strings.HasPrefix(ctype, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ctype)
			}
			for _, f := range c.fragments {
				if !strings.Contains(msg, f) {
					t.Errorf("error %q does not name %s", msg, f)
				}
			}
		})
	}
	if js, _ := bench.Judgments("A"); len(js) != 0 {
		t.Errorf("stored %+v after refused writes, want nothing", js)
	}
	if status, _, _ := postBody(t, ts.URL+"/api/label", map[string]any{"qid": "w2", "chunk_id": other, "rel": 2}); status != http.StatusOK {
		t.Errorf("label of w2's own chunk: %d, want 200", status)
	}
	if labels, _ := bench.Labels("A"); len(labels) != 1 || labels["w2"][other] != 2 {
		t.Errorf("stored %v, want only w2's label", labels)
	}
}

// TestSearchPageFilters: the Search page reads source (a comma list),
// since, until and sender as `linemem search` and MCP do; an unknown sender
// is shown as the error offering the closest names.
func TestSearchPageFilters(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	code, body := get(t, ts.URL+"/search?q="+url.QueryEscape("集合")+"&source="+url.QueryEscape("club, mika")+"&since="+url.QueryEscape("2024-01-01T00:00:00+09:00"))
	if code != http.StatusOK || strings.Contains(body, `class="error"`) {
		t.Errorf("filters a person types: %d, error shown: %v", code, strings.Contains(body, `class="error"`))
	}
	code, body = get(t, ts.URL+"/search?q="+url.QueryEscape("集合")+"&sender=nobodyatall")
	if code != http.StatusOK || !strings.Contains(body, "no one called &#34;nobodyatall&#34;") || !strings.Contains(body, "closest:") {
		t.Errorf("unknown sender: %d, body lacks the error with the closest names", code)
	}
}
