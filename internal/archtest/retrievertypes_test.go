package archtest_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// retrievalPkg is the package whose concrete retriever types no other
// package may name in a type switch or assertion: above lib/retrieval a
// retriever is asked for a capability (retrieval.Explainer, Lexical, Fused,
// SubQuerier) or its Spec is (NeedsVectors, Prefix), so that a new retriever
// changes nothing above it.
const retrievalPkg = "lib/retrieval"

func TestNoConcreteRetrieverTypes(t *testing.T) {
	root := repoRoot(t)
	concrete := concreteRetrievers(t, filepath.Join(root, retrievalPkg))
	for _, name := range []string{"BM25", "Vector", "Hybrid"} {
		if !concrete[name] {
			t.Fatalf("the retrievers found in %s (%v) lack %s: the derivation is broken", retrievalPkg, concrete, name)
		}
	}
	fset := token.NewFileSet()
	for _, top := range []string{"lib", "cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || filepath.ToSlash(rel) == retrievalPkg) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(fset, filepath.ToSlash(rel), src, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, v := range concreteTypeUses(fset, f, concrete) {
				t.Errorf("%s; ask for a capability of lib/retrieval (Explainer, Lexical, Fused, SubQuerier) or the retriever's Spec instead", v)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcreteTypeUses shows the rule bites: each snippet is a file outside
// lib/retrieval, and want lists the uses it must report.
func TestConcreteTypeUses(t *testing.T) {
	concrete := map[string]bool{"BM25": true, "Hybrid": true}
	const imp = `package p
import %s"github.com/linemem/linemem/lib/retrieval"
var _ retrieval.Retriever
`
	cases := []struct {
		name, alias, body string
		want              []string
	}{
		{"assertion", "", `func f(r retrieval.Retriever) { _, _ = r.(*retrieval.BM25) }`,
			[]string{"4:43: type assertion to *retrieval.BM25"}},
		{"assertion without pointer", "", `func f(r retrieval.Retriever) { _ = r.(retrieval.Hybrid) }`,
			[]string{"4:40: type assertion to retrieval.Hybrid"}},
		{"type switch", "", "func f(r retrieval.Retriever) {\n\tswitch r.(type) {\n\tcase *retrieval.BM25, *retrieval.Hybrid:\n\t}\n}",
			[]string{"6:7: type switch case *retrieval.BM25", "6:24: type switch case *retrieval.Hybrid"}},
		{"renamed import", "rt ", `func f(r rt.Retriever) { _, _ = r.(*rt.Hybrid) }`,
			[]string{"4:36: type assertion to *rt.Hybrid"}},
		{"capability interface", "", `func f(r retrieval.Retriever) { _, _ = r.(retrieval.Explainer) }`, nil},
		{"switch on capabilities", "", "func f(r retrieval.Retriever) {\n\tswitch r.(type) {\n\tcase retrieval.Fused, nil:\n\t}\n}", nil},
		{"another package's type of the same name", "", `type BM25 struct{}; func f(r any) { _, _ = r.(*BM25) }`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fmt.Sprintf(imp, c.alias)
			if c.alias != "" {
				src = strings.Replace(src, "var _ retrieval.", "var _ "+strings.TrimSpace(c.alias)+".", 1)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", src+c.body, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			got := concreteTypeUses(fset, f, concrete)
			for i := range got {
				got[i] = strings.TrimPrefix(got[i], "p.go:")
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("uses =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// concreteRetrievers returns the exported struct types of the package in dir
// that implement its Retriever interface: those whose methods (on the type
// or its pointer) include every method Retriever declares, by name.
func concreteRetrievers(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	structs := map[string]bool{}
	methods := map[string]map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					switch typ := ts.Type.(type) {
					case *ast.StructType:
						if ts.Name.IsExported() {
							structs[ts.Name.Name] = true
						}
					case *ast.InterfaceType:
						if ts.Name.Name == "Retriever" {
							for _, m := range typ.Methods.List {
								for _, n := range m.Names {
									want = append(want, n.Name)
								}
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					if methods[id.Name] == nil {
						methods[id.Name] = map[string]bool{}
					}
					methods[id.Name][d.Name.Name] = true
				}
			}
		}
	}
	if len(want) == 0 {
		t.Fatalf("no Retriever interface in %s", dir)
	}
	out := map[string]bool{}
	for name := range structs {
		all := true
		for _, m := range want {
			all = all && methods[name][m]
		}
		if all {
			out[name] = true
		}
	}
	return out
}

// concreteTypeUses lists, as "file:line:col: what", every type assertion and
// type switch case of f that names one of concrete through f's import of
// lib/retrieval (under any name).
func concreteTypeUses(fset *token.FileSet, f *ast.File, concrete map[string]bool) []string {
	alias := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == module+retrievalPkg {
			alias = "retrieval"
			if imp.Name != nil {
				alias = imp.Name.Name
			}
		}
	}
	if alias == "" || alias == "_" {
		return nil
	}
	names := func(e ast.Expr) (string, bool) {
		star := ""
		if s, ok := e.(*ast.StarExpr); ok {
			e, star = s.X, "*"
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != alias || !concrete[sel.Sel.Name] {
			return "", false
		}
		return star + alias + "." + sel.Sel.Name, true
	}
	var out []string
	report := func(e ast.Expr, what string) {
		if n, ok := names(e); ok {
			out = append(out, fmt.Sprintf("%s: %s %s", fset.Position(e.Pos()), what, n))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				report(n.Type, "type assertion to")
			}
		case *ast.TypeSwitchStmt:
			for _, st := range n.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					report(e, "type switch case")
				}
			}
		}
		return true
	})
	return out
}
