package main

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/linemem/linemem/lib/mcpserver"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/web"
)

// noticeCase is one search whose notices every front end shows.
type noticeCase struct {
	name      string
	retriever string // "" : the default
	since     string // "" : no lower bound
	question  string
	codes     []string // the codes the search gives, in order
}

// TestNoticesAreTheSameInEveryFrontEnd runs searches that give each kind
// of notice (not found, low confidence, warning, note) and checks that
// `search --json` (notices), `search` (the message on stdout for not found
// and low confidence, "warning: …" and "note: …" on stderr), the web
// Search page and MCP's search_memory (notices) show the same list.
func TestNoticesAreTheSameInEveryFrontEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "notices.db")
	run(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	run(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text")
	cases := []noticeCase{
		{"not found", "", "", "xyzzy plugh", []string{memory.CodeNotFound}},
		{"low confidence", "", "", "ポスター xyzzy plugh", []string{memory.CodeLowConfidence}},
		{"note", "", "2099-01-01", "ポスターの締切", []string{memory.CodeNotFound, memory.CodeFiltersMatchNone}},
		{"warning", "raw_text_vector", "", "xyzzy", []string{memory.CodeZeroQueryVector}},
	}
	kinds := map[memory.NoticeKind]bool{}
	want := make([][]noticeJSON, len(cases))
	for i, tc := range cases {
		args := []string{"search", "--db", db, "--k", "2"}
		if tc.retriever != "" {
			args = append(args, "--retriever", tc.retriever)
		}
		if tc.since != "" {
			args = append(args, "--since", tc.since)
		}
		var doc searchJSON
		if err := json.Unmarshal([]byte(run(t, append(args, "--json", tc.question)...)), &doc); err != nil {
			t.Fatal(err)
		}
		want[i] = doc.Notices
		var codes []string
		for _, n := range doc.Notices {
			codes, kinds[n.Kind] = append(codes, n.Code), true
		}
		if !reflect.DeepEqual(codes, tc.codes) {
			t.Errorf("%s: search --json notices %+v, want codes %v", tc.name, doc.Notices, tc.codes)
		}
		var stdout, stderr bytes.Buffer
		if code := runMain(&environment{stdout: &stdout, stderr: &stderr}, append(args, tc.question)); code != 0 {
			t.Fatalf("%s: search exit %d: %s", tc.name, code, stderr.String())
		}
		for _, n := range doc.Notices {
			switch n.Kind {
			case memory.KindWarning, memory.KindNote:
				if line := string(n.Kind) + ": " + n.Message + "\n"; !strings.Contains(stderr.String(), line) {
					t.Errorf("%s: search's stderr lacks %q:\n%s", tc.name, line, stderr.String())
				}
			default:
				if !strings.Contains(stdout.String(), "\n"+n.Message+"\n") {
					t.Errorf("%s: search's stdout lacks the line %q:\n%s", tc.name, n.Message, stdout.String())
				}
			}
		}
	}
	for _, k := range []memory.NoticeKind{memory.KindNotFound, memory.KindLowConfidence, memory.KindWarning, memory.KindNote} {
		if !kinds[k] {
			t.Errorf("no search gave a %s notice", k)
		}
	}

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := web.New(web.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cs := connectMCP(t, mcpserver.Config{Store: st})
	for i, tc := range cases {
		if got := webNotices(t, ts.URL, tc); !reflect.DeepEqual(got, withoutMissing(want[i])) {
			t.Errorf("%s: the Search page shows %+v, want %+v", tc.name, got, withoutMissing(want[i]))
		}
		if got := mcpNotices(t, cs, tc); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s: search_memory gives %+v, want %+v", tc.name, got, want[i])
		}
	}
}

// withoutMissing is ns without the missing words, which the web page shows
// inside the message only.
func withoutMissing(ns []noticeJSON) []noticeJSON {
	out := make([]noticeJSON, len(ns))
	for i, n := range ns {
		out[i] = noticeJSON{Kind: n.Kind, Code: n.Code, Message: n.Message}
	}
	return out
}

var webNotice = regexp.MustCompile(`<li class="notice ([a-z-]+)" data-code="([a-z-]+)">([^<]*)</li>`)

// webNotices reads the notices of the Search page for tc, in order.
func webNotices(t *testing.T, base string, tc noticeCase) []noticeJSON {
	t.Helper()
	v := url.Values{"q": {tc.question}, "k": {"2"}, "retriever": {tc.retriever}, "since": {tc.since}}
	resp, err := http.Get(base + "/search?" + v.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || bytes.Contains(body, []byte(`class="error"`)) {
		t.Fatalf("%s: the Search page: %d\n%s", tc.name, resp.StatusCode, body)
	}
	out := []noticeJSON{}
	for _, m := range webNotice.FindAllSubmatch(body, -1) {
		out = append(out, noticeJSON{Kind: memory.NoticeKind(m[1]), Code: string(m[2]), Message: html.UnescapeString(string(m[3]))})
	}
	return out
}

// connectMCP serves cfg over the SDK's in-memory transport.
func connectMCP(t *testing.T, cfg mcpserver.Config) *mcp.ClientSession {
	t.Helper()
	server, err := mcpserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "notices"}, nil).Connect(ctx, clientEnd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// mcpNotices calls search_memory for tc and returns its notices.
func mcpNotices(t *testing.T, cs *mcp.ClientSession, tc noticeCase) []noticeJSON {
	t.Helper()
	arguments := map[string]any{"question": tc.question, "k": 2}
	if tc.retriever != "" {
		arguments["retriever"] = tc.retriever
	}
	if tc.since != "" {
		arguments["since"] = tc.since
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolSearch, Arguments: arguments})
	if err != nil || res.IsError {
		t.Fatalf("%s: search_memory: %v %+v", tc.name, err, res)
	}
	var out mcpserver.SearchOutput
	decodeStructured(t, res, &out)
	got := []noticeJSON{}
	for _, n := range out.Notices {
		got = append(got, noticeJSON{Kind: memory.NoticeKind(n.Kind), Code: n.Code, Message: n.Message, Missing: n.Missing})
	}
	return got
}
