package archtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestAddACommand checks what docs/ARCHITECTURE.md's "Add a command"
// promises: each command of cmd/linemem is registered one way, in an init of
// the file named for its family (cmd_FAMILY.go, "-" written "_"), as
// register(&command{name: "…", …, run: runX}) with runX a function of that
// file taking (env *environment, c *command, args []string); no command file
// registers nothing; no code sets a command's run otherwise; and README.md or
// a guide under docs/ shows every command as `linemem NAME`.
func TestAddACommand(t *testing.T) {
	root := repoRoot(t)
	dir := filepath.Join(root, "cmd", "linemem")
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	registered := map[string]string{} // command name → file
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		base := filepath.Base(path)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		funcs := map[string]*ast.FuncDecl{}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
		}
		n := 0
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.AssignStmt:
				for _, lhs := range x.Lhs {
					if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "run" {
						t.Errorf("%s: %s sets a command's run outside register(&command{…})", base, fset.Position(x.Pos()))
					}
				}
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); !ok || id.Name != "register" {
					return true
				}
				n++
				name, run := registration(x)
				pos := fset.Position(x.Pos())
				if name == "" || run == "" {
					t.Errorf("%s: register takes &command{name: \"…\", …, run: runX}", pos)
					return true
				}
				if prev, dup := registered[name]; dup {
					t.Errorf("%s: %q registered again (first in %s)", pos, name, prev)
				}
				registered[name] = base
				family, _, _ := strings.Cut(name, " ")
				if want := "cmd_" + strings.ReplaceAll(family, "-", "_") + ".go"; base != want {
					t.Errorf("%s: command %q belongs in %s, the file of its family", pos, name, want)
				}
				if fd := funcs[run]; fd == nil || !runSignature(fd) {
					t.Errorf("%s: %q runs %s, which should be a function of %s taking (env *environment, c *command, args []string) and returning error", pos, name, run, base)
				}
			}
			return true
		})
		if strings.HasPrefix(base, "cmd_") && n == 0 {
			t.Errorf("%s registers no command: cmd_*.go files are the command families", base)
		}
		if !strings.HasPrefix(base, "cmd_") && n > 0 {
			t.Errorf("%s registers commands: they belong in cmd_FAMILY.go files", base)
		}
	}
	if len(registered) == 0 {
		t.Fatal("no command registered in cmd/linemem")
	}
	docs := readDocs(t, root)
	names := make([]string, 0, len(registered))
	for n := range registered {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !regexp.MustCompile(`linemem ` + regexp.QuoteMeta(n) + `\b`).Match(docs) {
			t.Errorf("neither README.md nor docs/*.md shows `linemem %s`", n)
		}
	}
}

// registration returns the name literal and the run function of a
// register(&command{…}) call, or "" for what is not of that form.
func registration(call *ast.CallExpr) (name, run string) {
	if len(call.Args) != 1 {
		return "", ""
	}
	u, ok := call.Args[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "", ""
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if id, isIdent := lit.Type.(*ast.Ident); !ok || !isIdent || id.Name != "command" {
		return "", ""
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch key := kv.Key.(*ast.Ident); key.Name {
		case "name":
			if bl, ok := kv.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				name, _ = strconv.Unquote(bl.Value)
			}
		case "run":
			if id, ok := kv.Value.(*ast.Ident); ok {
				run = id.Name
			}
		}
	}
	return name, run
}

// runSignature reports whether fd is func(env *environment, c *command,
// args []string) error.
func runSignature(fd *ast.FuncDecl) bool {
	var types []string
	for _, p := range fd.Type.Params.List {
		for range max(1, len(p.Names)) {
			types = append(types, exprString(p.Type))
		}
	}
	res := fd.Type.Results
	return strings.Join(types, ",") == "*environment,*command,[]string" &&
		res != nil && len(res.List) == 1 && exprString(res.List[0].Type) == "error"
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.ArrayType:
		return "[]" + exprString(x.Elt)
	}
	return "?"
}

// TestAddAWebPage checks what docs/ARCHITECTURE.md's "Add a web page"
// promises about lib/web: every template in templates/ other than the
// shared layout.html and messages.html is parsed as a page (a string literal
// "NAME.html" in pages.go) and rendered by a handler (s.render(w,
// "NAME.html", …)); every rendered page has its template; and every link of
// the layout's navigation is a GET route of web.go's route table.
func TestAddAWebPage(t *testing.T) {
	root := repoRoot(t)
	web := filepath.Join(root, "lib", "web")
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(web, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	pages, routes := read("pages.go"), read("web.go")
	templates, err := filepath.Glob(filepath.Join(web, "templates", "*.html"))
	if err != nil || len(templates) == 0 {
		t.Fatalf("no templates in lib/web/templates (%v)", err)
	}
	shared := map[string]bool{"layout.html": true, "messages.html": true}
	have := map[string]bool{}
	for _, path := range templates {
		name := filepath.Base(path)
		have[name] = true
		if shared[name] {
			continue
		}
		if !strings.Contains(pages, strconv.Quote(name)+",") && !strings.Contains(pages, strconv.Quote(name)+"}") {
			t.Errorf("templates/%s is not among the pages parseTemplates parses", name)
		}
		if !regexp.MustCompile(`s\.render\(w, ` + regexp.QuoteMeta(strconv.Quote(name))).MatchString(pages) {
			t.Errorf("templates/%s: no handler renders it", name)
		}
	}
	for _, m := range regexp.MustCompile(`s\.render\(w, "([^"]+)"`).FindAllStringSubmatch(pages, -1) {
		if !have[m[1]] {
			t.Errorf("pages.go renders %s, which templates/ lacks", m[1])
		}
	}
	for name := range shared {
		if !have[name] {
			t.Errorf("templates/%s, shared by every page, is missing", name)
		}
	}
	layout := read(filepath.Join("templates", "layout.html"))
	_, nav, _ := strings.Cut(layout, "<nav>")
	nav, _, _ = strings.Cut(nav, "</nav>")
	links := regexp.MustCompile(`href="(/[^"]*)"`).FindAllStringSubmatch(nav, -1)
	if len(links) == 0 {
		t.Fatal("templates/layout.html has no <nav> links")
	}
	for _, l := range links {
		if !strings.Contains(routes, `"GET `+l[1]+`"`) {
			t.Errorf("the navigation links %s, which web.go routes no GET to", l[1])
		}
	}
}
