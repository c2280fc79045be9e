package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/web"
	"github.com/linemem/linemem/lib/workbench"
)

// TestLabelUndoRedoAndAdjudicateOverHTTP: a label stores blind and seconds,
// bad seconds are refused, undo and redo answer the row as it now stands,
// the History page lists the change, and adjudication refuses one annotator
// twice and writes consensus.
func TestLabelUndoRedoAndAdjudicateOverHTTP(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w1", false)
	chunk := v.Rows[0].ChunkID
	step := func(path string) map[string]any {
		t.Helper()
		code, body, _ := send(t, ts, path, "application/json", []byte("{}"), nil)
		var out map[string]any
		if code != http.StatusOK || json.Unmarshal([]byte(body), &out) != nil {
			t.Fatalf("POST %s: %d %s", path, code, body)
		}
		return out
	}
	if out := step("/api/undo"); out["done"] != false {
		t.Errorf("undo with no history: %v", out)
	}
	cases := []struct {
		name string
		body map[string]any
		want int
	}{
		{"negative seconds", map[string]any{"qid": "w1", "chunk_id": chunk, "rel": 2, "seconds": -1}, http.StatusBadRequest},
		{"seconds over a day", map[string]any{"qid": "w1", "chunk_id": chunk, "rel": 2, "seconds": workbench.MaxSeconds + 1}, http.StatusBadRequest},
		{"blind, 3.5 s", map[string]any{"qid": "w1", "chunk_id": chunk, "rel": 2, "blind": true, "seconds": 3.5}, http.StatusOK},
	}
	for _, c := range cases {
		if code, body, _ := send(t, ts, "/api/label", "application/json", jsonBody(c.body), nil); code != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.want)
		}
	}
	js, _ := bench.Judgments("A")
	if len(js) != 1 || js[0].Blind == nil || !*js[0].Blind || js[0].Seconds == nil || *js[0].Seconds != 3.5 {
		t.Fatalf("stored %+v, want one blind label of 3.5 s", js)
	}
	if out := step("/api/undo"); out["done"] != true || out["rel"] != nil || out["chunk_id"] != chunk || out["kind"] != "label" {
		t.Errorf("undo: %v, want the row without its label", out)
	}
	if out := step("/api/redo"); out["done"] != true || out["rel"] != float64(2) {
		t.Errorf("redo: %v, want the row labelled 2 again", out)
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/history", nil)
	req.AddCookie(&http.Cookie{Name: "linemem_annotator", Value: "A"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := strings.Count(string(page), `<tr class="ev done"`); n != 1 || !strings.Contains(string(page), chunk) {
		t.Errorf("History lists %d changes in effect, want the one label of %s", n, chunk)
	}
	two := 0
	bench.Label("B", "w1", chunk, &two)
	if code, _, _ := send(t, ts, "/api/adjudicate", "application/json", jsonBody(map[string]any{"a": "A", "b": "A", "qid": "w1", "chunk_id": chunk, "rel": 1}), nil); code != http.StatusBadRequest {
		t.Errorf("adjudicate A with A: %d, want 400", code)
	}
	if code, body, _ := send(t, ts, "/api/adjudicate", "application/json", jsonBody(map[string]any{"a": "A", "b": "B", "qid": "w1", "chunk_id": chunk, "rel": 1}), nil); code != http.StatusOK {
		t.Errorf("adjudicate: %d %s", code, body)
	}
	if lc, _ := bench.Labels(workbench.Consensus); lc["w1"][chunk] != 1 {
		t.Errorf("consensus %v, want w1 %s = 1", lc, chunk)
	}
	if code, body := get(t, ts.URL+"/adjudicate?a=A&b=B"); code != http.StatusOK || !strings.Contains(body, `data-chunk="`+chunk+`"`) {
		t.Errorf("Adjudicate page: %d, lacks the differing row", code)
	}
}

// TestJudgePageHeaderAndPlaceholders: the header carries the question, its
// reference answer, the paper's three label definitions and the progress;
// a photo stored without text shows its placeholder.
func TestJudgePageHeaderAndPlaceholders(t *testing.T) {
	st, _ := workbenchtest.Judging(t, t.TempDir())
	srv, err := web.New(web.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	_, body := get(t, ts.URL+"/judge/s01")
	want := []string{`<bdi id="question">花火大会の予定はいつ？</bdi>`, `<bdi id="answer">8月3日の19時から</bdi>`,
		`<b id="progress">0 / 12</b>`, `<b id="allprogress">0 / 108</b>`, `href="/judge/s02">next with unjudged rows (U)`}
	for i, d := range web.LabelDefinitions {
		want = append(want, fmt.Sprintf("<dt>%d</dt><dd>%s</dd>", i, d))
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("Judge page lacks %s", w)
		}
	}
	if n := strings.Count(body, `<span class="ph">[photo]</span>`); n != workbenchtest.SessionDays {
		t.Errorf("%d photo placeholders, want one a row (%d)", n, workbenchtest.SessionDays)
	}
}

// TestAgreementPageDefaultsToTwoAnnotatorsNotConsensus: with a consensus
// stored, the Agreement page opens on the two people (sorted first), not on
// consensus and one of them; consensus stays in the lists.
func TestAgreementPageDefaultsToTwoAnnotatorsNotConsensus(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w1", false)
	chunk := v.Rows[0].ChunkID
	one, two := 1, 2
	bench.Label("me", "w1", chunk, &one)
	bench.Label("friend", "w1", chunk, &two)
	if err := bench.Adjudicate("friend", "me", "w1", chunk, &two); err != nil {
		t.Fatal(err)
	}
	code, body := get(t, ts.URL+"/agreement")
	if code != http.StatusOK {
		t.Fatalf("Agreement page: %d", code)
	}
	a := `<select name="a" id="a"><option dir="auto">consensus</option><option selected dir="auto">friend</option><option dir="auto">me</option></select>`
	b := `<select name="b" id="b"><option dir="auto">consensus</option><option dir="auto">friend</option><option selected dir="auto">me</option></select>`
	if !strings.Contains(body, a) || !strings.Contains(body, b) {
		t.Errorf("Agreement page opens on another pair than friend and me:\n%s", body)
	}
}

// TestAdjudicatePageComputesTheConsensusAtEachLoad: two annotators who
// agree on every row have nothing to adjudicate; after an adjudication the
// progress counts it; once both agree on the adjudicated row it no longer
// counts and the page says so.
func TestAdjudicatePageComputesTheConsensusAtEachLoad(t *testing.T) {
	ts, bench := newServer(t, io.Discard)
	v, _ := bench.View("", "w2", false)
	c0, c1 := v.Rows[0].ChunkID, v.Rows[1].ChunkID
	two, zero, one := 2, 0, 1
	for _, who := range []string{"A", "B"} {
		for _, row := range []struct {
			chunk string
			rel   *int
		}{{c0, &two}, {c1, &zero}} {
			if err := bench.Label(who, "w2", row.chunk, row.rel); err != nil {
				t.Fatal(err)
			}
		}
	}
	page := func() string {
		t.Helper()
		code, body := get(t, ts.URL+"/adjudicate?a=A&b=B")
		if code != http.StatusOK {
			t.Fatalf("GET /adjudicate: %d", code)
		}
		return body
	}
	if body := page(); !strings.Contains(body, `<b id="progress">0 / 0</b>`) || !strings.Contains(body, "agree on every row both labelled") {
		t.Error("two annotators who agree everywhere: the page does not say so")
	}
	bench.Label("B", "w2", c1, &one)
	if code := post(t, ts.URL+"/api/adjudicate", token, "A", map[string]any{"a": "A", "b": "B", "qid": "w2", "chunk_id": c1, "rel": 1}); code != http.StatusOK {
		t.Fatalf("POST /api/adjudicate: %d", code)
	}
	if body := page(); !strings.Contains(body, `<b id="progress">1 / 1</b>`) {
		t.Error("after adjudicating the one disagreement the progress is not 1 / 1")
	}
	bench.Label("A", "w2", c1, &one)
	body := page()
	if !strings.Contains(body, `<b id="progress">0 / 0</b>`) || !strings.Contains(body, "adjudications that no longer count: 1") || !strings.Contains(body, "both annotators now agree") {
		t.Error("once both agree on the adjudicated row the page does not report the adjudication obsolete")
	}
}
