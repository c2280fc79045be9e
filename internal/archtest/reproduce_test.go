package archtest_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layoutImports are what a file of lib/reproduce may import from the
// module: the prepared study it lays out (study), the results it lays out
// (experiment, beyond, robustness, analysis, bootstrap, answereval), the
// names of metrics, retrievers, tokenizers and question types, the data
// folder's layout and the report types. No ranking method, provider, store,
// ingest, memory or answerer: a layout computes and prepares nothing.
var layoutImports = []string{
	"lib/analysis", "lib/answereval", "lib/beyond", "lib/bootstrap", "lib/chat", "lib/datafolder",
	"lib/experiment", "lib/gold", "lib/metrics", "lib/questions", "lib/ranking", "lib/report",
	"lib/retrieval", "lib/robustness", "lib/study", "lib/synth", "lib/tokenize",
}

// layoutViolations returns the imports of the Go source src that a layout
// file may not have: a module package outside layoutImports, or a
// third-party package other than gonum's plot.
func layoutViolations(src string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "layout.go", src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		dep, inModule := strings.CutPrefix(p, module)
		switch {
		case inModule && !slices.Contains(layoutImports, dep):
			bad = append(bad, dep)
		case !inModule && strings.Contains(strings.SplitN(p, "/", 2)[0], ".") && !strings.HasPrefix(p, "gonum.org/v1/plot"):
			bad = append(bad, p)
		}
	}
	return bad, nil
}

// TestReproduceLaysOutOnly checks docs/ARCHITECTURE.md's rule for
// lib/reproduce: every non-test file imports only layoutImports (and the
// standard library and gonum's plot).
func TestReproduceLaysOutOnly(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "lib", "reproduce")
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	layouts := 0
	for _, path := range paths {
		base := filepath.Base(path)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		layouts++
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := layoutViolations(string(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range bad {
			t.Errorf("lib/reproduce/%s imports %s: a layout reads results, it computes none (compute in lib/beyond, prepare in lib/study)", base, dep)
		}
	}
	if layouts == 0 {
		t.Fatal("no layout file found in lib/reproduce")
	}
}

// TestLayoutRuleBites shows what the rule refuses and what it lets through.
func TestLayoutRuleBites(t *testing.T) {
	cases := []struct {
		name, imports string
		bad           []string
	}{
		{"a table from results", `"fmt"; "github.com/linemem/linemem/lib/report"; "github.com/linemem/linemem/lib/beyond"`, nil},
		{"a figure", `"gonum.org/v1/plot"; "gonum.org/v1/plot/vg"`, nil},
		{"a ranking method", `"github.com/linemem/linemem/lib/bm25"`, []string{"lib/bm25"}},
		{"fusion", `"github.com/linemem/linemem/lib/fusion"`, []string{"lib/fusion"}},
		{"a provider", `"github.com/linemem/linemem/lib/provider/lsa"`, []string{"lib/provider/lsa"}},
		{"the everyday search", `"github.com/linemem/linemem/lib/memory"`, []string{"lib/memory"}},
		{"an answerer", `"github.com/linemem/linemem/lib/answer"`, []string{"lib/answer"}},
		{"the store", `"github.com/linemem/linemem/lib/store"`, []string{"lib/store"}},
		{"ingest", `"github.com/linemem/linemem/lib/ingest"`, []string{"lib/ingest"}},
		{"chunking", `"github.com/linemem/linemem/lib/chunking"`, []string{"lib/chunking"}},
		{"a prepared study", `"github.com/linemem/linemem/lib/study"; "github.com/linemem/linemem/lib/experiment"`, nil},
		{"a tokenizer implementation", `"github.com/linemem/linemem/lib/tokenize/kagome"`, []string{"lib/tokenize/kagome"}},
		{"another third-party module", `"golang.org/x/sync/errgroup"`, []string{"golang.org/x/sync/errgroup"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "package reproduce\n\nimport (\n\t" + strings.ReplaceAll(c.imports, "; ", "\n\t") + "\n)\n"
			bad, err := layoutViolations(src)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(bad, c.bad) {
				t.Errorf("violations %q, want %q", bad, c.bad)
			}
		})
	}
}
