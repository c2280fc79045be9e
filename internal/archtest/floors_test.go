package archtest_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/linemem/linemem/"

// floors mirrors the table of docs/ARCHITECTURE.md: package → floor.
var floors = map[string]int{
	"lib/atomicdir": 0, "lib/regularfile": 0,
	"lib/chat": 0, "lib/ranking": 0, "lib/inputerr": 0, "lib/jsonl": 0, "lib/internal/parallel": 0, "lib/internal/sealed": 0, "lib/internal/atomicfile": 0,
	"lib/report": 0, "lib/redact": 0, "lib/provider": 0, "lib/provider/retry": 0, "lib/loopback": 0,

	"lib/lineexport": 1, "lib/chunking": 1, "lib/questions": 1, "lib/trec": 1, "lib/represent": 1,
	"lib/tokenize": 1, "lib/tokenize/bigram": 1, "lib/tokenize/everyday": 1, "lib/tokenize/kagome": 1, "lib/tokenize/paperregex": 1, "lib/tokenize/token": 1, "lib/tokenize/tokenizetest": 1,
	"lib/gold": 1, "lib/store": 1, "lib/ingest": 1, "lib/datafolder": 1, "lib/synth": 1, "lib/datasets": 1,

	"lib/bm25": 2, "lib/dense": 2, "lib/fusion": 2, "lib/diversify": 2, "lib/hierarchy": 2,
	"lib/provider/cache": 2, "lib/provider/ratelimit": 2, "lib/provider/lsa": 2, "lib/provider/openai": 2,
	"lib/provider/summaryfile": 2, "lib/provider/job": 2, "lib/questions/draft": 2, "lib/expand": 2,

	"lib/retrieval": 3, "lib/memory": 3,

	"lib/metrics": 4, "lib/bootstrap": 4, "lib/analysis": 4, "lib/experiment": 4, "lib/workbench": 4, "lib/answer": 4,

	"lib/beyond": 5, "lib/analyzers": 5, "lib/robustness": 5, "lib/answereval": 5, "lib/study": 5,

	"lib/reproduce": 6, "lib/benchmark": 6, "lib/notebook": 6, "lib/mcpserver": 6, "lib/web": 6,

	"cmd/linemem": 7, "internal/conformance": 7, "internal/archtest": 7, "internal/workbenchtest": 7,
}

// sameFloor lists the imports allowed between packages of one floor.
var sameFloor = map[string][]string{
	"lib/jsonl":           {"lib/inputerr"},
	"lib/report":          {"lib/jsonl"},
	"lib/tokenize":        {"lib/tokenize/bigram", "lib/tokenize/everyday", "lib/tokenize/kagome", "lib/tokenize/paperregex", "lib/tokenize/token"},
	"lib/store":           {"lib/chunking"},
	"lib/ingest":          {"lib/chunking", "lib/lineexport", "lib/store"},
	"lib/datafolder":      {"lib/gold", "lib/ingest", "lib/questions", "lib/trec"},
	"lib/synth":           {"lib/chunking", "lib/datafolder", "lib/gold", "lib/lineexport", "lib/questions", "lib/trec"},
	"lib/datasets":        {"lib/chunking", "lib/datafolder", "lib/gold", "lib/lineexport", "lib/questions", "lib/represent", "lib/trec"},
	"lib/hierarchy":       {"lib/bm25", "lib/fusion"},
	"lib/diversify":       {"lib/fusion"},
	"lib/provider/openai": {"lib/provider/ratelimit"},
	"lib/provider/job":    {"lib/provider/cache"},
	"lib/questions/draft": {"lib/provider/cache"},
	"lib/expand":          {"lib/provider/cache", "lib/provider/openai"},
	"lib/memory":          {"lib/retrieval"},
	"lib/bootstrap":       {"lib/metrics"},
	"lib/analysis":        {"lib/metrics"},
	"lib/experiment":      {"lib/analysis", "lib/bootstrap", "lib/metrics"},
	"lib/beyond":          {"lib/answereval"},
	"lib/notebook":        {"lib/reproduce"},
	"lib/benchmark":       {"lib/reproduce"},

	"lib/tokenize/bigram":       {"lib/tokenize/token"},
	"lib/tokenize/everyday":     {"lib/tokenize/kagome", "lib/tokenize/token"},
	"lib/tokenize/kagome":       {"lib/tokenize/token"},
	"lib/tokenize/paperregex":   {"lib/tokenize/token"},
	"lib/tokenize/tokenizetest": {"lib/tokenize/token"},
}

// testOnly are the packages only tests may import (helpers shared by the
// tests of several packages).
var testOnly = []string{"lib/tokenize/tokenizetest"}

func TestFloors(t *testing.T) {
	root := repoRoot(t)
	imports := map[string]map[string]bool{}
	fset := token.NewFileSet()
	for _, top := range []string{"lib", "cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			pkg := filepath.ToSlash(rel)
			if imports[pkg] == nil {
				imports[pkg] = map[string]bool{}
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if dep, ok := strings.CutPrefix(p, module); ok {
					imports[pkg][dep] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		floor, ok := floors[pkg]
		if !ok {
			t.Errorf("%s has no floor: place it in the table of docs/ARCHITECTURE.md and in floors here", pkg)
			continue
		}
		for dep := range imports[pkg] {
			if contains(testOnly, dep) {
				t.Errorf("%s imports %s outside its tests: only tests may import it", pkg, dep)
			}
			df, ok := floors[dep]
			switch {
			case !ok:
				// reported as the importer of its own
			case df < floor:
			case df == floor && contains(sameFloor[pkg], dep):
			default:
				t.Errorf("%s (floor %d) imports %s (floor %d): only lower floors, or the same-floor packages docs/ARCHITECTURE.md names", pkg, floor, dep, df)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// repoRoot is the module root: two folders above this package.
func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}
