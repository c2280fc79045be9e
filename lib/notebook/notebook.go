// Package notebook is the helper cell that the GoNB notebooks share: it
// moves the program into the repository root, stops a cell at its first
// error, opens the study from a parameters cell, and renders tables as
// Markdown and lists written files. Showing anything (gonbui) stays in the
// notebooks; this package only returns text and bytes.
//
// It imports lib/experiment (the protocol), lib/report (Markdown) and
// lib/reproduce (the study); nothing in lib/ imports it.
package notebook

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/reproduce"
)

// Params is a notebook's parameters cell. Paths are relative to the
// repository root.
type Params struct {
	DataDir    string              // a data folder laid out like data/synthetic
	DBPath     string              // the database; shared with `make reproduce`
	EmbedModel string              // "" → vectors shipped with the data, else the local embedder
	OutDir     string              // where tables and figures are written
	Protocol   experiment.Protocol // B, seed, metrics, β grid, pairings, tokenizer, …
}

// Defaults returns the parameters of `make reproduce`: data/synthetic,
// build/synthetic.db, shipped vectors, results/ and
// experiment.PaperProtocol(). With them a notebook writes the bytes
// `linemem reproduce` writes.
func Defaults() Params {
	return Params{
		DataDir:  "data/synthetic",
		DBPath:   "build/synthetic.db",
		OutDir:   "results",
		Protocol: experiment.PaperProtocol(),
	}
}

// Options returns the reproduce options of p: its paths, embedding model
// and protocol, as given, with chunking.DefaultOptions().
func (p Params) Options() reproduce.Options {
	o := reproduce.PaperOptions(p.DataDir, p.DBPath)
	o.EmbedModel, o.Protocol = p.EmbedModel, p.Protocol
	return o
}

// RepoRoot returns the top folder of the git repository holding dir.
func RepoRoot(dir string) (string, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("notebook: %s is in no git repository: %w", dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// EnterRepoRoot changes the working directory to the repository holding the
// notebook (GoNB's GONB_DIR, or the working directory when it is unset) and
// returns the root, so that relative paths hold wherever Jupyter started.
func EnterRepoRoot() string {
	dir := os.Getenv("GONB_DIR")
	if dir == "" {
		dir = "."
	}
	root, err := RepoRoot(dir)
	Must(err)
	Must(os.Chdir(root))
	return root
}

// Must stops the program with the error on stderr and exit status 1, which
// fails the cell (and a headless run); nil does nothing.
func Must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// Must1 returns v, or stops the program like Must when err is not nil.
func Must1[T any](v T, err error) T {
	Must(err)
	return v
}

// OpenStudy prepares the corpus and question set (reproduce.Prepare: ingest,
// summaries, gold, vectors). On a rerun it reloads what the database holds,
// so every cell can afford to call it. Close the study when done.
func OpenStudy(p Params) *reproduce.Study {
	return Must1(reproduce.Prepare(p.Options()))
}

// Markdown renders a table the library built, caption first, as the .md file
// it writes.
func Markdown(t report.Table) string {
	var b strings.Builder
	Must(t.WriteMarkdown(&b))
	return b.String()
}

// MarkdownGrid renders rows under columns as a Markdown table with no
// caption, for tables a notebook shows and writes nowhere.
func MarkdownGrid(columns []string, rows [][]string) string {
	var b strings.Builder
	Must(report.Table{Columns: columns, Rows: rows}.WriteMarkdownBody(&b))
	return b.String()
}

// ListFiles writes one line per file matching each glob pattern, its
// slash-separated path and size. A pattern matching nothing is an error.
func ListFiles(w io.Writer, patterns ...string) error {
	for _, pat := range patterns {
		paths, err := filepath.Glob(pat)
		if err != nil {
			return err
		}
		if len(paths) == 0 {
			return fmt.Errorf("no file matches %s", pat)
		}
		for _, p := range paths {
			info, err := os.Stat(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%-48s %9d bytes\n", filepath.ToSlash(p), info.Size())
		}
	}
	return nil
}

// Preview puts text on one line (line breaks shown as " ⏎ ", runs of space
// collapsed) and shortens it to n characters, with "…" when cut.
func Preview(text string, n int) string {
	text = strings.Join(strings.Fields(strings.ReplaceAll(text, "\n", " ⏎ ")), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return string([]rune(text)[:n]) + "…"
}
