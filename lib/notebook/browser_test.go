package notebook_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/linemem/linemem/lib/notebook"
)

// browserNotebooks are opened by TestNotebooksRunInTheBrowser: the
// quickstart, and the first notebook with figures.
var browserNotebooks = []struct {
	name    string
	figures int // inline figures the notebook must show at least
}{
	{"00_quickstart.ipynb", 0},
	{"02_rq1_representations.ipynb", 1},
}

// TestNotebooksRunInTheBrowser opens notebooks in the classic Jupyter web UI
// (scripts/jupyter.sh: this clone's gonb kernel) in headless Chromium,
// clears the committed outputs, runs every cell with "Restart & Run All",
// and checks that every code cell ran,
// no output is an error or a failed program, and the figures render inline
// as images the browser decoded. It saves a screenshot of each into
// LINEMEM_SCREENSHOTS (default build/screenshots/; `make
// notebook-screenshots` refreshes the committed docs/screenshots/). The
// notebooks are copies in build/browser/, so that Jupyter's autosave never
// rewrites the committed ones. `make notebook-browser` runs it
// (LINEMEM_NOTEBOOK_BROWSER=1) after installing what it needs.
func TestNotebooksRunInTheBrowser(t *testing.T) {
	if os.Getenv("LINEMEM_NOTEBOOK_BROWSER") == "" {
		t.Skip("set LINEMEM_NOTEBOOK_BROWSER=1 (make notebook-browser) to run the notebooks in Chromium")
	}
	root, err := notebook.RepoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("no chromium on PATH (scripts/setup-test-deps.sh installs it)")
	}
	dir := filepath.Join(root, "build", "browser")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, nb := range browserNotebooks {
		b, err := os.ReadFile(filepath.Join(root, "notebooks", nb.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, nb.name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	token := fmt.Sprintf("linemem-%d", time.Now().UnixNano())
	args := []string{"--no-browser", "--ip=127.0.0.1", fmt.Sprintf("--port=%d", port), "--NotebookApp.token=" + token, "--notebook-dir=" + dir}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root")
	}
	server := exec.Command(filepath.Join(root, "scripts", "jupyter.sh"), args...)
	server.Dir = root
	logPath := filepath.Join(dir, "jupyter.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	server.Stdout, server.Stderr = logFile, logFile
	server.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-server.Process.Pid, syscall.SIGTERM)
		server.Wait()
	}()
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/api/status?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("jupyter notebook did not answer on %s within 60 s (log: %s)", base, logPath)
		}
		time.Sleep(500 * time.Millisecond)
	}

	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000))
	defer cancel()
	for _, nb := range browserNotebooks {
		t.Run(nb.name, func(t *testing.T) {
			ctx, cancel := chromedp.NewContext(alloc)
			defer cancel()
			ctx, cancel = context.WithTimeout(ctx, 15*time.Minute)
			defer cancel()
			err := chromedp.Do(ctx, chromedp.Navigate(base+"/notebooks/"+nb.name+"?token="+token))
			if err == nil {
				_, err = chromedp.Run(ctx, chromedp.Poll[bool](`typeof Jupyter !== "undefined" && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()`,
					chromedp.WithPollingInterval(500*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute)))
			}
			if err != nil {
				t.Fatalf("opening %s: %v (log: %s)", nb.name, err, logPath)
			}
			if kernel, err := chromedp.Run(ctx, chromedp.Evaluate[string](`Jupyter.notebook.kernel.name`)); err != nil || kernel != "gonb" {
				t.Fatalf("kernel %q, %v; want gonb", kernel, err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`Jupyter.notebook.clear_all_output(); Jupyter.notebook.restart_run_all({confirm: false}); true`)); err != nil {
				t.Fatal(err)
			}
			// Done when the kernel is idle again and no code cell waits ("*")
			// or was never run.
			const done = `(function () {
				if (Jupyter.notebook.kernel_busy) return false;
				var cells = Jupyter.notebook.get_cells();
				for (var i = 0; i < cells.length; i++) {
					var c = cells[i];
					if (c.cell_type !== "code" || c.get_text().trim() === "") continue;
					if (c.input_prompt_number === "*" || c.input_prompt_number === undefined || c.input_prompt_number === null) return false;
				}
				return true;
			})()`
			time.Sleep(3 * time.Second)
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](done, chromedp.WithPollingInterval(time.Second), chromedp.WithPollingTimeout(12*time.Minute))); err != nil {
				t.Fatalf("waiting for the cells: %v", err)
			}
			type inspection struct {
				Errors  []string `json:"errors"`
				Figures int      `json:"figures"`
				Cells   int      `json:"cells"`
			}
			const inspect = `(function () {
				var errors = [], cells = 0;
				Jupyter.notebook.get_cells().forEach(function (c, i) {
					if (c.cell_type !== "code") return;
					cells++;
					(c.output_area.outputs || []).forEach(function (o) {
						if (o.output_type === "error") errors.push("cell " + i + ": " + o.ename + ": " + o.evalue);
						if (o.output_type === "stream" && o.name === "stderr" && /^(exit status [1-9]|signal: )/m.test(o.text)) errors.push("cell " + i + ": " + o.text);
					});
				});
				var figures = 0;
				document.querySelectorAll(".output_area img").forEach(function (img) {
					if (img.complete && img.naturalWidth > 100) figures++;
				});
				return {errors: errors, figures: figures, cells: cells};
			})()`
			report, err := chromedp.Run(ctx, chromedp.Evaluate[inspection](inspect))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range report.Errors {
				t.Errorf("%s: %s", nb.name, strings.TrimSpace(e))
			}
			if report.Figures < nb.figures {
				t.Errorf("%s: %d inline figures rendered, want at least %d", nb.name, report.Figures, nb.figures)
			}
			// The screenshot shows the first inline figure, or the first output.
			const scroll = `(function () {
				var el = document.querySelector(".output_area img") || document.querySelector(".output_subarea");
				if (el) el.scrollIntoView({block: "center"});
				return true;
			})()`
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](scroll)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			shots := os.Getenv("LINEMEM_SCREENSHOTS")
			if shots == "" {
				shots = filepath.Join("build", "screenshots")
			}
			if !filepath.IsAbs(shots) {
				shots = filepath.Join(root, shots)
			}
			shot := filepath.Join(shots, "notebook_"+strings.TrimSuffix(nb.name, ".ipynb")+".png")
			if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(shot, png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d code cells ran, %d figures inline, no errors; screenshot %s", nb.name, report.Cells, report.Figures, shot)
		})
	}
}
