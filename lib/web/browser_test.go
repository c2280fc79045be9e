package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/linemem/linemem/internal/workbenchtest"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/trec"
	"github.com/linemem/linemem/lib/web"
	"github.com/linemem/linemem/lib/workbench"
)

// screenshotsEnv names the environment variable that makes the browser test
// rewrite docs/screenshots/*.png.
const screenshotsEnv = "LINEMEM_SCREENSHOTS"

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on PATH: the browser test needs it (scripts/setup-test-deps.sh installs Debian's chromium and fonts-noto-cjk)")
	return ""
}

// browserSession is a headless Chromium for one test, with the actions the
// browser tests drive it by; each fails the test naming what it was doing.
type browserSession struct {
	t       *testing.T
	ctx     context.Context // the browser, under the test's timeout
	dialogs *atomic.Int32   // JavaScript dialogs opened so far
}

// newApp is the web app over st.
func newApp(t *testing.T, st *store.Store) *web.Server {
	t.Helper()
	srv, err := web.New(web.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// openBrowser starts headless Chromium (skipping the test in -short mode or
// without one); every action of the returned session runs within timeout of
// the start.
func openBrowser(t *testing.T, timeout time.Duration) *browserSession {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	exe := chromium(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900))
	t.Cleanup(cancel)
	browser, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	// The first action starts the browser; it must not run under a timeout.
	if err := chromedp.Do(browser, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	b := &browserSession{t: t, dialogs: new(atomic.Int32)}
	if err := chromedp.Listen(browser, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			b.dialogs.Add(1)
		}
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(browser, timeout)
	t.Cleanup(cancel)
	b.ctx = ctx
	return b
}

func (b *browserSession) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// str evaluates a JavaScript expression of type string.
func (b *browserSession) str(what, expr string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// truth evaluates a JavaScript expression of type boolean.
func (b *browserSession) truth(what, expr string) bool {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr))
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// waitJS waits up to 15 s for a JavaScript expression to be true.
func (b *browserSession) waitJS(what, expr string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		b.t.Fatalf("%s: waiting for %s: %v", what, expr, err)
	}
}

// loads runs an action that loads a page and waits for the load.
func (b *browserSession) loads(what string, a chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.WaitEvent(page.LoadEventFired, nil, a)); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// TestBrowserJudgeSearchAgreement uses the app as a person would, in headless
// Chromium: labels rows by keyboard, reloads, judges as a second annotator,
// reads κ, exports, and searches.
func TestBrowserJudgeSearchAgreement(t *testing.T) {
	br := openBrowser(t, 120*time.Second)
	st, _ := workbenchtest.Pooled(t, t.TempDir())
	bench := workbench.Open(st)
	ts := httptest.NewServer(newApp(t, st))
	defer ts.Close()

	ctx, dialogs := br.ctx, br.dialogs
	do, eval, waitJS := br.do, br.str, br.waitJS
	open := func(what, url, ready string) {
		t.Helper()
		do(what, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS(ready)))
	}
	keys := func(what string, progress []string, ks ...string) {
		t.Helper()
		for i, k := range ks {
			do(what, chromedp.KeyEvent(k))
			if progress[i] != "" {
				waitJS(what, fmt.Sprintf(`document.getElementById("progress").textContent === %q`, progress[i]))
			}
		}
	}
	loads := br.loads
	nextQuestion := func(what, qid string) {
		t.Helper()
		loads(what, chromedp.KeyEvent("n"))
		waitJS(what, fmt.Sprintf(`document.getElementById("judge") !== null && document.getElementById("judge").dataset.qid === %q`, qid))
	}
	setAnnotator := func(name string) {
		t.Helper()
		do("annotator "+name, chromedp.SetValue(chromedp.ID("annotator"), name))
		loads("annotator "+name, chromedp.Click(chromedp.CSS("form.who button")))
		waitJS("annotator "+name, fmt.Sprintf(`document.getElementById("judge") !== null && document.getElementById("judge").dataset.annotator === %q`, name))
	}
	const relsJS = `Array.from(document.querySelectorAll("li.row")).map(r => r.dataset.rel === "" ? "-" : r.dataset.rel).join("")`

	// Annotator A labels w1 and w2 by keyboard (rows in time order).
	open("open judge", ts.URL+"/judge/w1", "#judge")
	setAnnotator("A")
	keys("label w1", []string{"1 / 3", "2 / 3", "3 / 3"}, "2", "0", "0")
	script, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#row-467643a9cb3e4223 ul.msgs li .text")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(script, "<script>alert('x')</script>") {
		t.Errorf("the <script> message reads %q, want it as text", script)
	}
	nextQuestion("to w2", "w2")
	keys("label w2", []string{"1 / 3", "2 / 3", "3 / 3"}, "0", "2", "1")
	eval("scroll to the top", `window.scrollTo(0, 0); ""`)
	shot(t, ctx, "judge")
	// w3: label, undo, relabel, a note, then drop the question.
	nextQuestion("to w3", "w3")
	keys("label w3", []string{"1 / 2", "0 / 2", "1 / 2", "2 / 2"}, "1", "z", "2", "0")
	do("note", chromedp.KeyEvent("e"), chromedp.KeyEvent("room 201"), chromedp.KeyEvent(kb.Escape))
	do("drop", chromedp.KeyEvent("D"))
	waitJS("drop", `document.getElementById("decision").textContent === "drop" && document.getElementById("judge").dataset.pending === "0"`)
	// A reload shows what was saved.
	open("back to w1", ts.URL+"/judge/w1", "#judge")
	loads("reload", chromedp.Reload())
	if got := eval("reload w1", relsJS); got != "200" {
		t.Errorf("after reload w1 shows labels %q, want 200", got)
	}
	js, _ := bench.Judgments("A")
	notes := 0
	for _, j := range js {
		if j.Note == "room 201" && j.QID == "w3" && j.ChunkID == "0b190a358214b7bd" {
			notes++
		}
	}
	if len(js) != 8 || notes != 1 {
		t.Errorf("stored %d judgments of A with %d matching notes, want 8 with the w3 note: %+v", len(js), notes, js)
	}

	// Annotator B disagrees on two rows.
	setAnnotator("B")
	if got := eval("B's w1", relsJS); got != "---" {
		t.Errorf("B sees labels %q on w1, want none", got)
	}
	keys("B w1", []string{"1 / 3", "2 / 3", "3 / 3"}, "2", "1", "0")
	nextQuestion("B to w2", "w2")
	keys("B w2", []string{"1 / 3", "2 / 3", "3 / 3"}, "0", "2", "0")
	open("agreement", ts.URL+"/agreement?a=A&b=B", "#kappa")
	kappa, rows := eval("κ", `document.getElementById("kappa").textContent`), eval("rows", `document.getElementById("rows").textContent`)
	// Both judged 6 rows; table A×B: (2,2) ×2, (0,0) ×2, (0,1), (1,0); margins A (3,1,2), B (3,1,2).
	po, pe := 4.0/6, (3*3+1*1+2*2)/36.0
	if want := fmt.Sprintf("%.3f", (po-pe)/(1-pe)); kappa != want || rows != "6" {
		t.Errorf("agreement page shows κ %s over %s rows, want %s over 6", kappa, rows, want)
	}
	shot(t, ctx, "agreement")

	// Export A's gold and compare with the expected qrels.
	ex, err := bench.Export("A")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	trec.WriteQrels(&got, ex.Qrels)
	want, _ := os.ReadFile(filepath.Join(workbenchtest.Dir(), "browser_qrels.txt"))
	if got.String() != string(want) {
		t.Errorf("exported qrels:\n%s\nwant:\n%s", got.String(), want)
	}
	if len(ex.Dropped) != 1 || ex.Dropped[0] != (workbench.Dropped{QID: "w3", Reason: workbench.DropByAnnotator}) {
		t.Errorf("dropped %+v, want w3 by the annotator", ex.Dropped)
	}

	// Search: the expected chunk comes first, and its surrounding messages load.
	open("search", ts.URL+"/search", "#q")
	loads("type a question", chromedp.SendKeys(chromedp.ID("q"), "新歓の会場はどこ？"+kb.Enter))
	waitJS("results", `document.querySelector("li.result") !== null`)
	if first := eval("first result", `document.querySelector("li.result").dataset.chunk`); first != "c04e4e2d1b7eaf9b" {
		t.Errorf("first search result %s, want c04e4e2d1b7eaf9b (新歓の会場)", first)
	}
	open("search 京都", ts.URL+"/search?q="+url.QueryEscape("京都の宿はいくら"), "li.result")
	do("context", chromedp.Click(chromedp.CSS("li.result button.more")))
	waitJS("context", `document.querySelector("li.result .ctx.before").children.length + document.querySelector("li.result .ctx.after").children.length > 0`)
	shot(t, ctx, "search")
	if n := dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened: a message ran as script", n)
	}
}

// shot writes docs/screenshots/NAME.png when LINEMEM_SCREENSHOTS=1.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv(screenshotsEnv) != "1" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join(workbenchtest.Dir(), "..", "..", "docs", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
