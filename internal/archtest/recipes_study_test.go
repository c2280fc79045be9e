package archtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// parseDir parses the non-test Go files of the module folder rel (e.g.
// "lib/reproduce"), by file name.
func parseDir(t *testing.T, rel string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), filepath.FromSlash(rel), "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(path)] = f
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", rel)
	}
	return fset, files
}

// artefactConstructors build an Artefact in lib/reproduce.
var artefactConstructors = map[string]bool{"tableArtefact": true, "figureArtefact": true, "withMetrics": true}

// isArtefact reports whether e builds an Artefact: a call of an artefact
// constructor or an Artefact{…} literal.
func isArtefact(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.CallExpr:
		id, ok := x.Fun.(*ast.Ident)
		return ok && artefactConstructors[id.Name]
	case *ast.CompositeLit:
		id, ok := x.Type.(*ast.Ident)
		return ok && id.Name == "Artefact"
	}
	return false
}

// TestAddAnArtefact checks docs/ARCHITECTURE.md's "A new artefact": every
// package variable of lib/reproduce that builds an Artefact is listed once
// in the registry Artefacts, the registry lists nothing else, and no two
// artefacts are built under one slug expression.
func TestAddAnArtefact(t *testing.T) {
	fset, files := parseDir(t, "lib/reproduce")
	declared := map[string]string{} // variable → file
	slugs := map[string]string{}    // slug expression → variable
	var registry []string
	for base, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					v := vs.Values[i]
					if name.Name == "Artefacts" {
						lit, ok := v.(*ast.CompositeLit)
						if !ok {
							t.Fatalf("%s: Artefacts is not a list literal", base)
						}
						for _, e := range lit.Elts {
							id, ok := e.(*ast.Ident)
							if !ok {
								t.Errorf("%s: the registry lists %s, not a package variable", fset.Position(e.Pos()), exprText(e))
								continue
							}
							registry = append(registry, id.Name)
						}
						continue
					}
					if !isArtefact(v) {
						continue
					}
					declared[name.Name] = base
					slug := slugExpr(fset, v)
					if prev, dup := slugs[slug]; dup && slug != "" {
						t.Errorf("%s and %s are both built under the slug %s", prev, name.Name, slug)
					}
					slugs[slug] = name.Name
				}
			}
		}
	}
	if len(registry) == 0 {
		t.Fatal("no registry Artefacts in lib/reproduce")
	}
	seen := map[string]bool{}
	for _, name := range registry {
		if seen[name] {
			t.Errorf("the registry lists %s twice", name)
		}
		seen[name] = true
		if _, ok := declared[name]; !ok {
			t.Errorf("the registry lists %s, which no file of lib/reproduce declares as an artefact", name)
		}
	}
	names := make([]string, 0, len(declared))
	for name := range declared {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !seen[name] {
			t.Errorf("%s (%s) builds an artefact that the registry Artefacts does not list", name, declared[name])
		}
	}
}

// slugExpr is the source of the slug an artefact is built under: the first
// argument of its constructor (through withMetrics), or its Slug field.
func slugExpr(fset *token.FileSet, e ast.Expr) string {
	switch x := e.(type) {
	case *ast.CallExpr:
		if len(x.Args) == 0 {
			return ""
		}
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "withMetrics" {
			return slugExpr(fset, x.Args[0])
		}
		return exprText(x.Args[0])
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Slug" {
					return exprText(kv.Value)
				}
			}
		}
	}
	return ""
}

// exprText renders a small expression as source text.
func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.BasicLit:
		return x.Value
	case *ast.SelectorExpr:
		return exprText(x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		var args []string
		for _, a := range x.Args {
			args = append(args, exprText(a))
		}
		return exprText(x.Fun) + "(" + strings.Join(args, ", ") + ")"
	}
	return "…"
}

// TestAddAMetric checks docs/ARCHITECTURE.md's "A new metric": every family
// of lib/metrics' registry has a label in familyLabels.
func TestAddAMetric(t *testing.T) {
	_, files := parseDir(t, "lib/metrics")
	keys := func(name string) map[string]bool {
		out := map[string]bool{}
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok || len(vs.Names) != 1 || vs.Names[0].Name != name || len(vs.Values) != 1 {
					return true
				}
				if lit, ok := vs.Values[0].(*ast.CompositeLit); ok {
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							out[strings.Trim(exprText(kv.Key), `"`)] = true
						}
					}
				}
				return false
			})
		}
		return out
	}
	families, labels := keys("families"), keys("familyLabels")
	if len(families) == 0 {
		t.Fatal("no families map in lib/metrics")
	}
	for f := range families {
		if !labels[f] {
			t.Errorf("metric family %q has no label in familyLabels (lib/metrics/label.go)", f)
		}
	}
	for l := range labels {
		if !families[l] {
			t.Errorf("familyLabels labels %q, which is no family of the registry", l)
		}
	}
}

// protocolTables are the files of lib/reproduce whose interval columns
// follow Protocol.Metrics.
var protocolTables = []string{"singles.go", "hybrids.go", "tokenizers.go", "fusion_rules.go", "ablation.go"}

// handMetricColumn matches a column heading or cell written for one metric
// by hand ("Recall@5 (95% CI)"), or a metric of the protocol read by its
// constant where the columns should come from ciColumns and metricCells.
var handMetricColumn = regexp.MustCompile(`(?i)(recall|mrr|ndcg|success)@\d+ \(|metricCell\(\w+(\.\w+)*, metrics\.`)

// TestAddAMetricColumn checks docs/ARCHITECTURE.md's "A new metric column":
// the tables that follow the protocol build their interval columns from it
// (ciColumns, metricCells), never by naming a metric in a heading or cell.
func TestAddAMetricColumn(t *testing.T) {
	root := repoRoot(t)
	for _, base := range protocolTables {
		src, err := os.ReadFile(filepath.Join(root, "lib", "reproduce", base))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := handMetricColumn.FindString(line); m != "" {
				t.Errorf("lib/reproduce/%s:%d writes the metric column %q by hand: take it from ciColumns and metricCells", base, i+1, m)
			}
		}
		if !strings.Contains(string(src), "ciColumns(") {
			t.Errorf("lib/reproduce/%s has no interval columns from ciColumns", base)
		}
	}
}

// TestAddAnAnalysis checks docs/ARCHITECTURE.md's "A new analysis": no
// exported function of lib/reproduce takes a *Study and returns a lib/beyond
// result (a wrapper of an analysis), and no analysis of lib/beyond (an
// exported function returning an error) takes an *experiment.Setup, a
// *experiment.Sweep or evaluations to reuse first: it takes the
// *experiment.Outcome.
func TestAddAnAnalysis(t *testing.T) {
	_, reproduce := parseDir(t, "lib/reproduce")
	for base, f := range reproduce {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || fd.Type.Params.NumFields() == 0 {
				continue
			}
			first := exprText(starless(fd.Type.Params.List[0].Type))
			if first != "Study" || fd.Type.Results == nil {
				continue
			}
			for _, r := range fd.Type.Results.List {
				if strings.HasPrefix(exprText(starless(r.Type)), "beyond.") {
					t.Errorf("lib/reproduce/%s: %s wraps a lib/beyond analysis: call it from the artefact's build with s.Outcome", base, fd.Name.Name)
				}
			}
		}
	}
	_, beyond := parseDir(t, "lib/beyond")
	for base, f := range beyond {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || fd.Type.Params.NumFields() == 0 || !returnsError(fd) {
				continue
			}
			switch first := exprText(starless(fd.Type.Params.List[0].Type)); first {
			case "experiment.Sweep", "experiment.Evaluation":
				t.Errorf("lib/beyond/%s: %s takes a %s: take the *experiment.Outcome, which holds it", base, fd.Name.Name, first)
			case "experiment.Setup":
				if !setupAnalyses[fd.Name.Name] {
					t.Errorf("lib/beyond/%s: %s takes an *experiment.Setup: take the *experiment.Outcome (or name it in setupAnalyses with why)", base, fd.Name.Name)
				}
			}
		}
	}
}

// setupAnalyses are the analyses of lib/beyond that take a Setup of their
// own rather than a study's Outcome, with why.
var setupAnalyses = map[string]bool{
	"QueryExpansion": true, // over a Builder that folds sub-queries in (OfflineExpansion gives it the study's)
}

// returnsError reports whether fd's last result is an error.
func returnsError(fd *ast.FuncDecl) bool {
	rs := fd.Type.Results
	return rs != nil && len(rs.List) > 0 && exprText(rs.List[len(rs.List)-1].Type) == "error"
}

func starless(e ast.Expr) ast.Expr {
	if s, ok := e.(*ast.StarExpr); ok {
		return s.X
	}
	return e
}
