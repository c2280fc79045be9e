package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/web"
	"github.com/linemem/linemem/lib/workbench"
)

// send posts body to path of ts with the token, annotator A and the given
// extra headers, and returns the status and the answer's text.
func send(t *testing.T, ts *httptest.Server, path, ctype string, body []byte, headers map[string]string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	if ctype == "application/json" {
		req.Header.Set("X-CSRF-Token", token)
	}
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	req.AddCookie(&http.Cookie{Name: "linemem_annotator", Value: "A"})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func jsonBody(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestBodiesOverTheLimitGet413NamingIt: a body over web.MaxRequestBody is
// answered 413 with the limit in bytes, whether JSON or a form; a note of
// exactly workbench.MaxNoteBytes is stored and one byte more is 413.
func TestBodiesOverTheLimitGet413NamingIt(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w1", false)
	chunk := v.Rows[0].ChunkID
	limit := strconv.Itoa(web.MaxRequestBody)
	huge := strings.Repeat("x", web.MaxRequestBody+1)
	cases := []struct {
		name, path, ctype string
		body              []byte
		want              int
		names             string
	}{
		{"label body over the limit", "/api/label", "application/json", jsonBody(map[string]any{"qid": "w1", "chunk_id": chunk, "rel": 1, "pad": huge}), http.StatusRequestEntityTooLarge, limit},
		{"annotator form over the limit", "/annotator", "application/x-www-form-urlencoded", []byte("csrf=" + token + "&annotator=A&pad=" + huge), http.StatusRequestEntityTooLarge, limit},
		{"note of 1 MiB", "/api/note", "application/json", jsonBody(map[string]any{"qid": "w1", "chunk_id": chunk, "note": strings.Repeat("n", workbench.MaxNoteBytes)}), http.StatusOK, ""},
		{"note of 1 MiB + 1 byte", "/api/note", "application/json", jsonBody(map[string]any{"qid": "w1", "chunk_id": chunk, "note": strings.Repeat("n", workbench.MaxNoteBytes+1)}), http.StatusRequestEntityTooLarge, strconv.Itoa(workbench.MaxNoteBytes)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, body, _ := send(t, ts, c.path, c.ctype, c.body, nil)
			if got != c.want || !strings.Contains(body, c.names) {
				t.Errorf("status %d, body %.200q; want %d naming %s", got, body, c.want, c.names)
			}
		})
	}
	js, _ := bench.Judgments("A")
	if len(js) != 1 || len(js[0].Note) != workbench.MaxNoteBytes {
		t.Errorf("stored %d judgments, want the 1 MiB note only", len(js))
	}
}

func TestSafeBackIsAPathOnThisSite(t *testing.T) {
	for back, want := range map[string]string{
		"/judge/w1?reveal=1": "/judge/w1?reveal=1",
		"/":                  "/",
		"//evil.example":     "/judge",
		`/\evil.example`:     "/judge",
		"/\t/evil.example":   "/judge",
		"/\n/evil.example":   "/judge",
		"https://evil":       "/judge",
		"":                   "/judge",
		"judge":              "/judge",
	} {
		if got := web.SafeBack(back, "/judge"); got != want {
			t.Errorf("SafeBack(%q) = %q, want %q", back, got, want)
		}
	}
	ts, _ := newServer(t, io.Discard)
	form := url.Values{"csrf": {token}, "annotator": {"A"}, "back": {`/\evil.example`}}
	code, _, h := send(t, ts, "/annotator", "application/x-www-form-urlencoded", []byte(form.Encode()), nil)
	if code != http.StatusSeeOther || h.Get("Location") != "/judge" {
		t.Errorf(`POST /annotator back=/\evil.example: %d to %q, want 303 to /judge`, code, h.Get("Location"))
	}
}

// TestHostCheckStaysWithAllowedHosts: a name is answered only when it is
// loopback or in Options.AllowedHosts.
func TestHostCheckStaysWithAllowedHosts(t *testing.T) {
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	cases := []struct {
		allowed []string
		host    string
		want    int
	}{
		{nil, "judge.example", http.StatusForbidden},
		{[]string{"judge.example"}, "judge.example:8080", http.StatusOK},
		{[]string{"judge.example"}, "JUDGE.example", http.StatusOK},
		{[]string{"judge.example"}, "rebind.example", http.StatusForbidden},
		{[]string{"judge.example"}, "127.0.0.1", http.StatusOK},
	}
	for _, c := range cases {
		srv, err := web.New(web.Options{Store: st, AllowedHosts: c.allowed})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, "/judge", nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != c.want {
			t.Errorf("allowed %v, Host %s: %d, want %d", c.allowed, c.host, rec.Code, c.want)
		}
	}
}

// TestCrossSitePostsAreRefused: a POST with the right token is still refused
// when its Origin is another site's or Sec-Fetch-Site says cross-site.
func TestCrossSitePostsAreRefused(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w1", false)
	body := jsonBody(map[string]any{"qid": "w1", "chunk_id": v.Rows[0].ChunkID, "rel": 1})
	self := ts.URL
	cases := []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"another port", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"another host", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"null origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"null origin from another site", map[string]string{"Origin": "null", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"null origin of this app's own form (no referrer)", map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"Sec-Fetch-Site cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"Sec-Fetch-Site same-site (another port)", map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{"same origin", map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"no origin (curl)", nil, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, b, _ := send(t, ts, "/api/label", "application/json", body, c.headers); got != c.want {
				t.Errorf("status %d (%s), want %d", got, b, c.want)
			}
		})
	}
}

func TestAssetsListNoFolderAndTheFaviconIsServed(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	for path, want := range map[string]int{"/assets/": 404, "/assets": 404, "/assets/app.css": 200, "/favicon.ico": 200} {
		if code, body := get(t, ts.URL+path); code != want {
			t.Errorf("GET %s: %d, want %d: %.100s", path, code, want, body)
		}
	}
	resp, err := http.Get(ts.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Errorf("favicon Content-Type %q", ct)
	}
}

// TestSuppliedStringsAreBidiIsolated: every sender and message text on the
// Judge, Search and context views sits in its own <bdi>.
func TestSuppliedStringsAreBidiIsolated(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	for _, path := range []string{"/judge/w1", "/judge/w2?reveal=1", "/search?q=" + url.QueryEscape("京都の宿"), "/judge"} {
		_, body := get(t, ts.URL+path)
		if strings.Contains(body, "<b>") {
			t.Errorf("%s: a name in <b>, not isolated", path)
		}
		times := strings.Count(body, "</time> ")
		senders := strings.Count(body, "</time> <bdi")
		if times != senders {
			t.Errorf("%s: %d messages, %d senders in <bdi>", path, times, senders)
		}
		if texts := strings.Count(body, `<bdi class="text">`); path != "/judge" && texts == 0 {
			t.Errorf("%s: no message text in <bdi>", path)
		}
	}
}

// TestAnnotatorNameRule: the Judge page takes a name `gold agreement
// --annotators` can name, and not the one adjudication writes.
func TestAnnotatorNameRule(t *testing.T) {
	ts, _ := newServer(t, io.Discard)
	for name, want := range map[string]int{
		"A":                     http.StatusSeeOther,
		"  B  ":                 http.StatusSeeOther,
		"a,b":                   http.StatusBadRequest,
		"":                      http.StatusBadRequest,
		workbench.Consensus:     http.StatusBadRequest,
		strings.Repeat("x", 65): http.StatusBadRequest,
	} {
		form := url.Values{"csrf": {token}, "annotator": {name}}
		if code, body, _ := send(t, ts, "/annotator", "application/x-www-form-urlencoded", []byte(form.Encode()), nil); code != want {
			t.Errorf("POST /annotator %q: %d %q, want %d", name, code, body, want)
		}
	}
}

// TestAPIWritesHoldTheCookieToTheNameRule: a forged annotator cookie — the
// consensus, a comma, a line break, a control character, 3,000 bytes — is
// refused (400) by every write, and nothing is stored under it.
func TestAPIWritesHoldTheCookieToTheNameRule(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, err := bench.View("", "w1", false)
	if err != nil {
		t.Fatal(err)
	}
	chunk := v.Rows[0].ChunkID
	two, note, keep := 2, "n", true
	writes := map[string]any{
		"/api/label":  map[string]any{"qid": "w1", "chunk_id": chunk, "rel": two},
		"/api/note":   map[string]any{"qid": "w1", "chunk_id": chunk, "note": note},
		"/api/decide": map[string]any{"qid": "w1", "keep": keep},
		"/api/undo":   map[string]any{},
		"/api/redo":   map[string]any{},
	}
	for _, name := range []string{workbench.Consensus, "a,b", "a\nb", "a\x00b", strings.Repeat("x", 3000)} {
		for path, body := range writes {
			if code := post(t, ts.URL+path, token, name, body); code != http.StatusBadRequest {
				t.Errorf("POST %s as %q: %d, want 400", path, cutForLog(name), code)
			}
		}
	}
	if all, _ := bench.Annotators(); len(all) != 0 {
		t.Errorf("annotators stored: %q, want none", all)
	}
	if code := post(t, ts.URL+"/api/label", token, "A", writes["/api/label"]); code != http.StatusOK {
		t.Errorf("POST /api/label as A: %d", code)
	}
}

func cutForLog(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}
