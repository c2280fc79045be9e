package notebook_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/notebook"
)

// committedNotebook is the part of an .ipynb file the test reads.
type committedNotebook struct {
	Cells []struct {
		CellType       string          `json:"cell_type"`
		ID             string          `json:"id"`
		ExecutionCount *int            `json:"execution_count"`
		Source         json.RawMessage `json:"source"`
		Outputs        []struct {
			OutputType string                     `json:"output_type"`
			Data       map[string]json.RawMessage `json:"data"`
		} `json:"outputs"`
	} `json:"cells"`
	NBFormat      int `json:"nbformat"`
	NBFormatMinor int `json:"nbformat_minor"`
}

// text joins a notebook string field, stored as a string or a list of lines.
func text(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		t.Fatalf("notebook text %s: %v", raw, err)
	}
	return strings.Join(lines, "")
}

// TestCommittedOutputsShowTheResults reads every committed notebook and
// holds its outputs to results/: each notebook is nbformat 4.5 with an ID
// on every cell and every code cell executed; each Markdown output headed
// like a results/*.md file (its caption line, "**Table 6: …**") is, byte
// for byte, that file (tables the notebooks compute for themselves have
// headings of their own); and each inline
// figure that has the bytes of a results/*.png is counted, so that a
// committed notebook whose numbers or figures no longer match results/
// (after `make reproduce` without `make notebooks-outputs`) fails.
func TestCommittedOutputsShowTheResults(t *testing.T) {
	root, err := notebook.RepoRoot(".")
	if err != nil {
		t.Skip(err)
	}
	results := map[string]string{}  // Markdown table → file
	headings := map[string]string{} // its first line → file
	pngs := map[string]string{}     // PNG bytes → file
	// results/ and its subfolders (results/benchmarks/<data set>/), whose
	// tables share the paper's headings: a heading names one of the files
	// it heads, and the output must equal one of them.
	var files []string
	if err := filepath.WalkDir(filepath.Join(root, "results"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		switch filepath.Ext(f) {
		case ".md", ".png":
		default:
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) == ".md" {
			md := strings.TrimSpace(string(b))
			rel, _ := filepath.Rel(filepath.Join(root, "results"), f)
			results[md] = rel
			headings[strings.SplitN(md, "\n", 2)[0]] = rel
		} else {
			rel, _ := filepath.Rel(filepath.Join(root, "results"), f)
			pngs[string(b)] = rel
		}
	}
	notebooks, err := filepath.Glob(filepath.Join(root, "notebooks", "[0-9][0-9]_*.ipynb"))
	if err != nil || len(notebooks) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	tables, figures := 0, 0
	for _, path := range notebooks {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var nb committedNotebook
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if nb.NBFormat != 4 || nb.NBFormatMinor < 5 {
			t.Errorf("%s: nbformat %d.%d, want 4.5 (cell IDs)", name, nb.NBFormat, nb.NBFormatMinor)
		}
		outputs := 0
		for i, c := range nb.Cells {
			if c.ID == "" {
				t.Errorf("%s: cell %d has no id", name, i)
			}
			if c.CellType != "code" {
				continue
			}
			if c.ExecutionCount == nil && strings.TrimSpace(text(t, c.Source)) != "" {
				t.Errorf("%s: code cell %d (%s) is committed unexecuted; run `make notebooks-outputs`", name, i, c.ID)
			}
			for _, o := range c.Outputs {
				outputs++
				if md, ok := o.Data["text/markdown"]; ok {
					s := strings.TrimSpace(text(t, md))
					if file, ok := headings[strings.SplitN(s, "\n", 2)[0]]; ok {
						if _, ok := results[s]; !ok {
							t.Errorf("%s: cell %s shows %s's table with other contents:\n%s", name, c.ID, file, s)
						}
						tables++
					}
				}
				if img, ok := o.Data["image/png"]; ok {
					raw, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(text(t, img), "\n", ""))
					if err != nil {
						t.Errorf("%s: cell %s: inline PNG: %v", name, c.ID, err)
						continue
					}
					if _, ok := pngs[string(raw)]; ok {
						figures++
					} else if !bytes.HasPrefix(raw, []byte("\x89PNG")) {
						t.Errorf("%s: cell %s: inline image is no PNG", name, c.ID)
					}
				}
			}
		}
		if outputs == 0 {
			t.Errorf("%s is committed without outputs; run `make notebooks-outputs`", name)
		}
	}
	if tables == 0 || figures == 0 {
		t.Errorf("%d tables and %d figures of results/ found in the notebooks' outputs, want some of each", tables, figures)
	}
	t.Logf("%d tables equal to results/*.md, %d inline figures equal to results/*.png", tables, figures)
}
