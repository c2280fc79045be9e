package web_test

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/web"
	"github.com/linemem/linemem/lib/workbench"
)

// setAnnotator sets the annotator's name with the page's form, as a person
// does, on the Judge page of qid.
func setAnnotator(br *browserSession, url, qid, name string) {
	br.t.Helper()
	br.do("open", chromedp.Navigate(url+"/judge/"+qid), chromedp.WaitReady(chromedp.ID("judge")))
	br.do("annotator", chromedp.SetValue(chromedp.ID("annotator"), name))
	br.loads("annotator", chromedp.Click(chromedp.CSS("form.who button")))
	br.waitJS("annotator", `document.getElementById("judge") !== null && document.getElementById("judge").dataset.annotator === "`+name+`"`)
}

// TestBrowserRowTimeSurvivesRevealAndReload: a row read blind for N
// seconds, then with the sources revealed (s, no reload) and labelled,
// stores at least N blind seconds and N + the revealed time in all; a row
// whose timer ran before a reload keeps that time after it.
func TestBrowserRowTimeSurvivesRevealAndReload(t *testing.T) {
	br := openBrowser(t, 120*time.Second)
	st, _ := workbenchtest.Judging(t, t.TempDir())
	bench := workbench.Open(st)
	ts := httptest.NewServer(newApp(t, st))
	defer ts.Close()
	const qid = "s02"
	const blindFor, revealedFor = 2 * time.Second, time.Second
	setAnnotator(br, ts.URL, qid, "A")
	const saved = `document.querySelector("[data-pending]").dataset.pending === "0"`
	stored := func(chunk string) workbench.Judgment {
		t.Helper()
		js, err := bench.Judgments("A")
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range js {
			if j.QID == qid && j.ChunkID == chunk && j.Rel != nil {
				return j
			}
		}
		t.Fatalf("no label stored on %s", chunk)
		return workbench.Judgment{}
	}

	first := br.str("current", `document.activeElement.dataset.chunk`)
	br.truth("mark the page", `(window.samePage = true)`)
	br.do("read blind", chromedp.Sleep(blindFor))
	br.do("reveal", chromedp.KeyEvent("s"))
	br.waitJS("revealed", `document.getElementById("judge").dataset.reveal === "1"`)
	br.do("read revealed", chromedp.Sleep(revealedFor))
	br.do("label", chromedp.KeyEvent("1"))
	br.waitJS("saved", saved)
	if !br.truth("no reload", `window.samePage === true`) {
		t.Error("s reloaded the page")
	}
	j := stored(first)
	if j.Blind == nil || *j.Blind || j.Seconds == nil || *j.Seconds < (blindFor+revealedFor).Seconds() || j.BlindSeconds == nil || *j.BlindSeconds < blindFor.Seconds() || *j.BlindSeconds > *j.Seconds {
		t.Errorf("read %v blind, %v revealed, then labelled: stored blind %v, seconds %v, blind seconds %v; want revealed, ≥ %v s, ≥ %v s blind",
			blindFor, revealedFor, deref(j.Blind), deref(j.Seconds), deref(j.BlindSeconds), (blindFor + revealedFor).Seconds(), blindFor.Seconds())
	}
	t.Logf("read %v blind and %v revealed: stored %.1f s, %.1f s of them blind", blindFor, revealedFor, *j.Seconds, deref(j.BlindSeconds))

	second := br.str("current", `document.activeElement.dataset.chunk`)
	const before, after = 1500 * time.Millisecond, 500 * time.Millisecond
	br.do("read before the reload", chromedp.Sleep(before))
	br.loads("reload", chromedp.Reload())
	br.waitJS("back", `document.getElementById("judge") !== null`)
	if got := br.str("current", `document.activeElement.dataset.chunk`); got != second {
		t.Fatalf("after the reload the current row is %s, want %s", got, second)
	}
	br.do("read after the reload", chromedp.Sleep(after))
	br.do("label", chromedp.KeyEvent("2"))
	br.waitJS("saved", saved)
	if j := stored(second); j.Seconds == nil || *j.Seconds < (before+after).Seconds() {
		t.Errorf("%v on the row, a reload, %v more: stored %v seconds, want ≥ %v", before, after, deref(j.Seconds), (before + after).Seconds())
	}
	ex, err := bench.Export("A")
	if err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	ex.WriteReport(&report)
	if !strings.Contains(report.String(), "read blind") {
		t.Errorf("the export report lacks the blind and revealed time:\n%s", report.String())
	}
}

// maxAdjudicateBytes bounds one Adjudicate page of the fixture: 20 rows
// of 40 messages weigh about 130 kB (the whole list of 780 rows, 4 MB).
const maxAdjudicateBytes = 256 << 10

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestBrowserAdjudicateAPartialSecondAnnotation: 100 questions of 9 rows
// (900) labelled by A, 20 of them by B too, who differs on 3 rows of each.
// The Adjudicate page lists the 60 disagreements first, a page at a time
// (n turns it), counts progress
// over them, keeps the 720 rows only A labelled apart, shows the current
// row's reference answer and the label definitions in its header, and
// weighs a page of rows, not the whole list. The time it took to open is
// logged, not asserted (the figure depends on the machine's load).
func TestBrowserAdjudicateAPartialSecondAnnotation(t *testing.T) {
	const questions, days, second, differ = 100, 9, 20, 3
	br := openBrowser(t, 180*time.Second)
	st, _ := workbenchtest.JudgingOf(t, t.TempDir(), questions, days)
	bench := workbench.Open(st)
	qs, err := bench.Questions()
	if err != nil {
		t.Fatal(err)
	}
	var jsonl bytes.Buffer
	disagreements := 0
	for qi, q := range qs {
		v, err := bench.View("", q.QID, false)
		if err != nil {
			t.Fatal(err)
		}
		for ri, r := range v.Rows {
			a := (qi + ri) % 3
			fmt.Fprintf(&jsonl, `{"qid":%q,"chunk_id":%q,"rel":%d,"annotator":"A"}`+"\n", q.QID, r.ChunkID, a)
			if qi%(questions/second) == 0 {
				b := a
				if ri < differ {
					b = (a + 1) % 3
					disagreements++
				}
				fmt.Fprintf(&jsonl, `{"qid":%q,"chunk_id":%q,"rel":%d,"annotator":"B"}`+"\n", q.QID, r.ChunkID, b)
			}
		}
	}
	if _, err := bench.ImportJudgments("judgments", &jsonl); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newApp(t, st))
	defer ts.Close()
	singles := questions*days - second*days
	br.do("adjudicate", chromedp.Navigate(ts.URL+"/adjudicate?a=A&b=B"), chromedp.WaitReady(chromedp.ID("adjudicate")))
	ms := br.str("timing", `(() => { const n = performance.getEntriesByType("navigation")[0]; return String(Math.round(n.loadEventEnd - n.startTime)) + " " + n.transferSize; })()`)
	var openMs, bytes int
	fmt.Sscan(ms, &openMs, &bytes)
	t.Logf("Adjudicate, %d pool rows, B on %d of %d questions: opened in %d ms (%d bytes)", questions*days, second, questions, openMs, bytes)
	if bytes > maxAdjudicateBytes {
		t.Errorf("the Adjudicate page weighs %d bytes, want at most %d: a page lists %d rows", bytes, maxAdjudicateBytes, web.AdjudicateRows)
	}
	if n := br.str("rows", `String(document.querySelectorAll("li.adj").length)`); n != strconv.Itoa(min(disagreements, web.AdjudicateRows)) {
		t.Errorf("the first page lists %s rows, want %d", n, min(disagreements, web.AdjudicateRows))
	}
	if !br.truth("disagreements", `Array.from(document.querySelectorAll("li.adj")).every((li) => li.dataset.a !== "" && li.dataset.b !== "" && li.dataset.a !== li.dataset.b)`) {
		t.Error("the first page lists a row that is not a disagreement")
	}
	if got, want := br.str("progress", `document.getElementById("progress").textContent`), fmt.Sprintf("0 / %d", disagreements); got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if !br.truth("singles", `document.querySelector('#show option[value="singles"]').textContent.includes("(`+strconv.Itoa(singles)+`)")`) {
		t.Errorf("the rows labelled by one annotator are not counted apart (%d)", singles)
	}
	if got := br.str("answer", `document.getElementById("curanswer").textContent`); got != "答え1" && got != "8月3日の19時から" {
		t.Errorf("the header's reference answer is %q", got)
	}
	if !br.truth("definitions", `document.querySelectorAll("#qhead dl.defs dt").length === 3`) {
		t.Error("the header lacks the label definitions")
	}
	br.do("take A's", chromedp.KeyEvent("a"))
	br.waitJS("progress", `document.getElementById("progress").textContent === "1 / `+strconv.Itoa(disagreements)+`"`)
	br.loads("next page", chromedp.KeyEvent("n"))
	br.waitJS("page 2", `document.getElementById("adjudicate") !== null && location.search.includes("page=2")`)
	if n := br.str("rows", `String(document.querySelectorAll("li.adj").length)`); n != strconv.Itoa(min(web.AdjudicateRows, disagreements-web.AdjudicateRows)) {
		t.Errorf("page 2 lists %s rows, want %d", n, min(web.AdjudicateRows, disagreements-web.AdjudicateRows))
	}
	br.do("singles", chromedp.Navigate(ts.URL+"/adjudicate?a=A&b=B&show=singles"), chromedp.WaitReady(chromedp.ID("adjudicate")))
	if !br.truth("singles listed", `document.querySelectorAll("li.adj").length === `+strconv.Itoa(web.AdjudicateRows)+` && Array.from(document.querySelectorAll("li.adj")).every((li) => li.dataset.b === "")`) {
		t.Error("show=singles does not list the rows only A labelled")
	}
}

// TestBrowserJudgeOnAPhone: on a 390 × 844 screen the Judge page folds the
// label definitions and the key legend, and the current row shows below the
// header on load.
func TestBrowserJudgeOnAPhone(t *testing.T) {
	br := openBrowser(t, 60*time.Second)
	st, _ := workbenchtest.Judging(t, t.TempDir())
	ts := httptest.NewServer(newApp(t, st))
	defer ts.Close()
	setAnnotator(br, ts.URL, "s01", "A")
	br.do("phone", chromedp.EmulateViewport(390, 844))
	br.loads("reload", chromedp.Reload())
	br.waitJS("judge", `document.getElementById("judge") !== null && document.querySelector("li.row.current") !== null`)
	shown := br.str("visible", `(() => { const h = document.getElementById("qhead").getBoundingClientRect().bottom,
		r = document.querySelector("li.row.current").getBoundingClientRect();
		return String(Math.round(Math.min(r.bottom, window.innerHeight) - Math.max(r.top, h))) + " " + Math.round(h); })()`)
	var visible, header int
	fmt.Sscan(shown, &visible, &header)
	t.Logf("390 × 844: the header ends at %d px, %d px of the current row show", header, visible)
	if visible < 844*2/5 || header > 844/3 {
		t.Errorf("on a phone the header ends at %d px and %d px of the current row show; want at most a third of the screen and 40 %% of it for the row", header, visible)
	}
	if br.truth("folded", `Array.from(document.querySelectorAll("#qhead details.fold")).some((d) => d.open)`) {
		t.Error("the definitions or the key legend are unfolded on a phone")
	}
	shot(t, br.ctx, "judge_phone")
}

// TestBrowserUndoRightAfterALabel: an undo pressed right after a label is
// applied after it (writes go out in key order), so each label is taken
// back; the question's and the whole pool's counters follow the undo.
func TestBrowserUndoRightAfterALabel(t *testing.T) {
	br := openBrowser(t, 60*time.Second)
	st, _ := workbenchtest.Judging(t, t.TempDir())
	bench := workbench.Open(st)
	ts := httptest.NewServer(newApp(t, st))
	defer ts.Close()
	setAnnotator(br, ts.URL, "s03", "A")
	const saved = `document.querySelector("[data-pending]").dataset.pending === "0"`
	// The page takes keys once its script has made a row current; a key
	// pressed before that labels nothing.
	br.waitJS("current row", `document.querySelector("li.row.current") !== null`)
	br.do("keep one", chromedp.KeyEvent("1"))
	br.waitJS("saved", saved)
	br.waitJS("kept", `document.getElementById("allprogress").textContent.startsWith("1 / ")`)
	const tries = 8
	for i := 0; i < tries; i++ {
		br.do("label then undo", chromedp.KeyEvent("2"), chromedp.KeyEvent("z"))
		br.waitJS("saved", saved)
	}
	labels, err := bench.Labels("A")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(labels["s03"]); n != 1 {
		t.Errorf("after %d label-then-undo pairs %d rows are labelled, want the 1 labelled before", tries, n)
	}
	want := fmt.Sprintf("%d / %d", 1, workbenchtest.SessionQuestions*workbenchtest.SessionDays)
	if got := br.str("all", `document.getElementById("allprogress").textContent`); got != want {
		t.Errorf("the all-questions counter reads %q after the undos, want %q", got, want)
	}
	if got := br.str("question", `document.getElementById("progress").textContent`); got != fmt.Sprintf("1 / %d", workbenchtest.SessionDays) {
		t.Errorf("the question counter reads %q", got)
	}
}
