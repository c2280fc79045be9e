package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/trec"
	"github.com/linemem/linemem/lib/workbench"
)

// flaky is a server that can be made to drop every connection, as a killed
// server would.
type flaky struct {
	h    http.Handler
	down atomic.Bool
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.down.Load() {
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
				return
			}
		}
	}
	f.h.ServeHTTP(w, r)
}

// TestBrowserJudgingSessionByKeyboard judges a pool of 108 rows (9
// questions × 12 chunks of 40 messages) in headless Chromium with the
// keyboard only: it reaches the evidence message (the 20th of 40) of a long
// row with m and checks it is on screen before labelling, labels the row
// Tab moved to, labels every other row, undoes across a reload, survives a
// lost server, and adjudicates against a second annotator, comparing the
// consensus qrels line by line with what it decided.
func TestBrowserJudgingSessionByKeyboard(t *testing.T) {
	br := openBrowser(t, 240*time.Second)
	st, sess := workbenchtest.Judging(t, t.TempDir())
	bench := workbench.Open(st)
	fl := &flaky{h: newApp(t, st)}
	ts := httptest.NewServer(fl)
	defer ts.Close()

	ctx, dialogs := br.ctx, br.dialogs
	do, str, truth, waitJS, loads := br.do, br.str, br.truth, br.waitJS, br.loads
	key := func(what, k string) {
		t.Helper()
		do(what, chromedp.KeyEvent(k))
	}
	const saved = `document.querySelector("[data-pending]").dataset.pending === "0"`
	// The current row, as the page sees it: its chunk, and whether it is the
	// focused element.
	const curChunk = `document.activeElement.classList.contains("current") ? document.activeElement.dataset.chunk : "not focused"`
	label := func(qid, chunk string) *int {
		t.Helper()
		ls, err := bench.Labels("A")
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := ls[qid][chunk]; ok {
			return &r
		}
		return nil
	}

	// The annotator's name is the one step done with a form.
	do("open", chromedp.Navigate(ts.URL+"/judge/s01"), chromedp.WaitReady(chromedp.ID("judge")))
	do("annotator", chromedp.SetValue(chromedp.ID("annotator"), "A"))
	loads("annotator", chromedp.Click(chromedp.CSS("form.who button")))
	waitJS("annotator", `document.getElementById("judge") !== null && document.getElementById("judge").dataset.annotator === "A"`)
	start := time.Now()
	keysPressed := 0
	press := func(what, k string) {
		t.Helper()
		key(what, k)
		keysPressed++
	}

	// Reveal the sources (s), walk to the evidence row with j, and reach its
	// evidence message with m.
	truth("mark the page", `(window.samePage = true)`)
	key("reveal", "s")
	keysPressed++
	waitJS("revealed", `document.getElementById("judge").dataset.reveal === "1"`)
	if !truth("no reload", `window.samePage === true`) {
		t.Error("s reloaded the page")
	}
	evRow := `document.getElementById("row-` + sess.EvidenceChunk + `")`
	evMsg := `document.querySelector('li[data-id="` + sess.EvidenceMessage + `"]')`
	if !truth("evidence marked", evMsg+`.classList.contains("evmsg")`) {
		t.Fatal("the evidence message is not marked on the revealed page")
	}
	if more := str("overflow", evRow+`.dataset.more`); more == "" || more == "0" {
		t.Errorf("the 40-message row shows %q more messages, want a count", more)
	}
	for i := 0; i < workbenchtest.SessionDays && str("to evidence row", curChunk) != sess.EvidenceChunk; i++ {
		press("j", "j")
	}
	if got := str("evidence row", curChunk); got != sess.EvidenceChunk {
		t.Fatalf("j did not reach the evidence row: current %s", got)
	}
	visible := func(el string) string {
		return `(() => { const e = ` + el + `, r = e.getBoundingClientRect(), p = e.closest("ul.msgs").getBoundingClientRect(),
			h = document.getElementById("qhead").getBoundingClientRect().bottom;
			return r.top >= Math.max(0, h, p.top) - 1 && r.bottom <= Math.min(window.innerHeight, p.bottom) + 1; })()`
	}
	if truth("hidden before m", visible(evMsg)) {
		t.Fatal("the evidence message is visible before m: the fixture's row does not overflow")
	}
	// Space pages the row's own messages (not the window), Shift+Space back.
	paneTop := evRow + `.querySelector("ul.msgs").scrollTop`
	// The window settles first: the rows' "N more messages" lines are laid
	// out a frame after j moved the cursor, and may shift it.
	winY := str("window", `String(window.scrollY)`)
	for i := 0; i < 50; i++ {
		time.Sleep(100 * time.Millisecond)
		y := str("window", `String(window.scrollY)`)
		if y == winY {
			break
		}
		winY = y
	}
	moreBefore, _ := strconv.Atoi(str("more", evRow+`.dataset.more`))
	press("space", " ")
	// A window scroll by Space is smooth: it shows a few frames later.
	time.Sleep(500 * time.Millisecond)
	if top := str("pane", `String(`+paneTop+`)`); top == "0" || str("window", `String(window.scrollY)`) != winY {
		t.Errorf("Space: pane at %s, window %s → %s; want the pane scrolled and the window still", top, winY, str("window", `String(window.scrollY)`))
	}
	// The count follows the pane's scroll event, which comes with the next frame.
	waitJS("fewer more messages", fmt.Sprintf(`Number(%s.dataset.more) < %d`, evRow, moreBefore))
	do("shift+space", chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierShift)))
	keysPressed++
	if top := str("pane", `String(`+paneTop+`)`); top != "0" {
		t.Errorf("Shift+Space left the pane at %s, want back at 0", top)
	}
	// c shows the surrounding messages (the days before and after).
	press("context", "c")
	waitJS("context", evRow+`.querySelectorAll(".ctx .cmsg").length > 0`)
	for i := 0; i < 5 && !truth("at evidence", evMsg+`.classList.contains("at")`); i++ {
		press("m", "m")
	}
	if !truth("m reached", evMsg+`.classList.contains("at")`) || !truth("visible", visible(evMsg)) {
		t.Fatalf("m did not bring the 20th of 40 messages into view: %s", str("rect", `JSON.stringify(`+evMsg+`.getBoundingClientRect())`))
	}
	shot(t, ctx, "judge_long_row_evidence")
	press("label evidence row", "2")
	waitJS("saved", saved)
	if r := label(sess.EvidenceQID, sess.EvidenceChunk); r == nil || *r != 2 {
		t.Fatalf("the evidence row is labelled %v, want 2", r)
	}

	// Back to blind (s), then Tab twice and 2: the row Tab reached gets it.
	key("blind", "s")
	keysPressed++
	waitJS("blind", `document.getElementById("judge").dataset.reveal === "0"`)
	if truth("blind evidence", `document.querySelector(".evidence, .evmsg, .origin") !== null`) {
		t.Error("the blind page shows evidence or sources")
	}
	from := str("after reload", curChunk)
	press("tab", kb.Tab)
	press("tab", kb.Tab)
	tabbed := str("tabbed", curChunk)
	if tabbed == from || tabbed == "not focused" {
		t.Fatalf("Tab left the cursor at %s (from %s)", tabbed, from)
	}
	want := str("two rows on", `(() => { const rs = Array.from(document.querySelectorAll("li.row")); const i = rs.findIndex(r => r.dataset.chunk === "`+from+`"); return rs[i + 2].dataset.chunk; })()`)
	if tabbed != want {
		t.Errorf("two Tabs moved the cursor to %s, want the row two on, %s", tabbed, want)
	}
	press("label tabbed", "2")
	waitJS("saved", saved)
	if r := label("s01", tabbed); r == nil || *r != 2 {
		t.Errorf("the row Tab moved to is labelled %v, want 2", r)
	}
	js, _ := bench.Judgments("A")
	for _, j := range js {
		blind := j.Blind != nil && *j.Blind
		if wantBlind := j.ChunkID != sess.EvidenceChunk; j.Blind == nil || blind != wantBlind || j.Seconds == nil {
			t.Errorf("judgment %s: blind %v, seconds %v; want blind %v and seconds", j.ChunkID, j.Blind, j.Seconds, wantBlind)
		}
	}

	// Label every other row: u to the next unjudged row, a label chosen from
	// the row's number, and U to the next question with unjudged rows.
	decided := map[string]map[string]int{"s01": {sess.EvidenceChunk: 2, tabbed: 2}}
	for q := 0; q < workbenchtest.SessionQuestions; q++ {
		qid := str("qid", `document.getElementById("judge").dataset.qid`)
		if decided[qid] == nil {
			decided[qid] = map[string]int{}
		}
		for !truth("question done", `Array.from(document.querySelectorAll("li.row")).every(r => r.dataset.rel !== "")`) {
			if truth("current judged", `document.activeElement.dataset.rel !== ""`) {
				press("u", "u")
			}
			chunk := str("current", curChunk)
			n, _ := strconv.Atoi(str("n", `document.activeElement.querySelector(".n").textContent`))
			rel := n % 3
			decided[qid][chunk] = rel
			press("label", strconv.Itoa(rel))
			waitJS("label", `document.getElementById("row-`+chunk+`").dataset.rel === "`+strconv.Itoa(rel)+`"`)
		}
		waitJS("saved", saved)
		if q == workbenchtest.SessionQuestions-1 || !truth("more", `document.getElementById("nextunjudged") !== null`) {
			break
		}
		loads("U", chromedp.KeyEvent("U"))
		keysPressed++
	}
	elapsed := time.Since(start)
	rows := 0
	for _, m := range decided {
		rows += len(m)
	}
	t.Logf("keyboard only: %d rows labelled with %d keys in %s (%.2f s a row)", rows, keysPressed, elapsed.Round(100*time.Millisecond), elapsed.Seconds()/float64(rows))
	if rows != workbenchtest.SessionQuestions*workbenchtest.SessionDays {
		t.Fatalf("labelled %d rows, want %d", rows, workbenchtest.SessionQuestions*workbenchtest.SessionDays)
	}

	// Undo survives a reload: z takes back the last label, Z applies it again.
	lastQID := str("qid", `document.getElementById("judge").dataset.qid`)
	lastChunk := ""
	if evs, _ := bench.History("A", 1); len(evs) == 1 {
		lastChunk = evs[0].ChunkID
	}
	loads("reload", chromedp.Reload())
	key("undo", "z")
	waitJS("undo", `document.getElementById("row-`+lastChunk+`").dataset.rel === "" && `+saved)
	if r := label(lastQID, lastChunk); r != nil {
		t.Errorf("after z across a reload the last row is still labelled %d", *r)
	}
	key("redo", "Z")
	waitJS("redo", `document.getElementById("row-`+lastChunk+`").dataset.rel !== "" && `+saved)
	if r := label(lastQID, lastChunk); r == nil || *r != decided[lastQID][lastChunk] {
		t.Errorf("after Z the last row is labelled %v, want %d", r, decided[lastQID][lastChunk])
	}
	do("history", chromedp.Navigate(ts.URL+"/history"), chromedp.WaitReady(chromedp.ID("history")))
	if n := str("history rows", `String(document.querySelectorAll("#history tr.ev").length)`); n != strconv.Itoa(rows) {
		t.Errorf("History lists %s events, want one per labelled row (%d)", n, rows)
	}
	shot(t, ctx, "history")

	// A lost server: one banner, no dialog, the cursor stays, and the label
	// is saved once the server answers again.
	do("back", chromedp.Navigate(ts.URL+"/judge/s02"), chromedp.WaitReady(chromedp.ID("judge")))
	fl.down.Store(true)
	before := str("cursor", curChunk)
	key("label while down", "0")
	waitJS("banner", `!document.getElementById("banner").hidden && document.getElementById("banner").classList.contains("lost")`)
	if got := str("cursor", curChunk); got != before {
		t.Errorf("with the server lost the cursor is on %s, want back on the unsaved row %s", got, before)
	}
	key("j while down", "j")
	key("j while down", "j")
	if got := str("cursor", curChunk); got != before {
		t.Errorf("the cursor moved to %s while the server was lost", got)
	}
	if !truth("banner in view", `(() => { const r = document.getElementById("banner").getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })()`) {
		t.Error("the lost-server banner is not in view")
	}
	fl.down.Store(false)
	waitJS("recovered", `!document.getElementById("banner").classList.contains("lost") && document.querySelectorAll(".unsaved").length === 0`)
	if r := label("s02", before); r == nil || *r != 0 {
		t.Errorf("the label given while the server was lost is %v after it came back, want 0", r)
	}
	decided["s02"][before] = 0

	// A second annotator differs on some rows; adjudicate by keyboard.
	qs, _ := bench.Questions()
	differ := 0
	for qi, q := range qs {
		v, _ := bench.View("", q.QID, false)
		for ri, r := range v.Rows {
			rel := decided[q.QID][r.ChunkID]
			if qi < 2 && ri%4 == 0 {
				rel = (rel + 1) % 3
				differ++
			}
			if err := bench.Label("B", q.QID, r.ChunkID, &rel); err != nil {
				t.Fatal(err)
			}
		}
	}
	kappaBefore, _ := bench.Agreement("A", "B")
	do("adjudicate", chromedp.Navigate(ts.URL+"/adjudicate?a=A&b=B"), chromedp.WaitReady(chromedp.ID("adjudicate")))
	if n := str("rows", `String(document.querySelectorAll("li.adj").length)`); n != strconv.Itoa(differ) {
		t.Fatalf("Adjudicate lists %s rows, want the %d that differ", n, differ)
	}
	consensus := map[string]map[string]int{}
	for qid, m := range decided {
		consensus[qid] = map[string]int{}
		for c, r := range m {
			consensus[qid][c] = r
		}
	}
	sides := []string{"a", "b", "1"}
	for i := 0; i < differ; i++ {
		qid := str("qid", `document.activeElement.dataset.qid`)
		chunk := str("chunk", `document.activeElement.dataset.chunk`)
		side := sides[i%len(sides)]
		var rel int
		switch side {
		case "a":
			rel, _ = strconv.Atoi(str("a", `document.activeElement.dataset.a`))
		case "b":
			rel, _ = strconv.Atoi(str("b", `document.activeElement.dataset.b`))
		default:
			rel = 1
		}
		consensus[qid][chunk] = rel
		key("adjudicate", side)
	}
	waitJS("adjudicated", `document.getElementById("progress").textContent === "`+fmt.Sprintf("%d / %d", differ, differ)+`" && `+saved)
	shot(t, ctx, "adjudicate")
	kappaAfter, _ := bench.Agreement("A", "B")
	if fmt.Sprint(kappaBefore.Kappa) != fmt.Sprint(kappaAfter.Kappa) {
		t.Errorf("κ of A and B moved from %v to %v", kappaBefore.Kappa, kappaAfter.Kappa)
	}
	ex, err := bench.ExportConsensus("A", "B", false)
	if err != nil {
		t.Fatal(err)
	}
	var got, wantQrels bytes.Buffer
	trec.WriteQrels(&got, ex.Qrels)
	expect := trec.Qrels{}
	for qid, m := range consensus {
		has2 := false
		for _, r := range m {
			has2 = has2 || r == 2
		}
		if has2 {
			expect[qid] = m
		}
	}
	trec.WriteQrels(&wantQrels, expect)
	gl, wl := lines(got.String()), lines(wantQrels.String())
	if len(gl) != len(wl) {
		t.Errorf("consensus qrels have %d lines, want %d", len(gl), len(wl))
	}
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("consensus qrels line %d: %q, want %q", i+1, gl[i], wl[i])
		}
	}
	if n := dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened", n)
	}
}

func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}
