package archtest_test

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// readmeMaxLines is the length of the front page: what linemem is, the two
// commands and where to go next; guides live under docs/.
const readmeMaxLines = 150

// pendingDocs are documents that README.md and docs/*.md link to before they
// are written, each by the change that writes it; a link to one of them is
// not yet an error. Remove an entry when its file lands.
var pendingDocs = map[string]bool{}

// docFiles are README.md and every Markdown file directly under docs/,
// relative to root with slashes, sorted.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, g := range guides {
		rel, _ := filepath.Rel(root, g)
		files = append(files, filepath.ToSlash(rel))
	}
	sort.Strings(files[1:])
	return files
}

// readDocs returns README.md and docs/*.md joined, one after another.
func readDocs(t *testing.T, root string) []byte {
	t.Helper()
	var all []byte
	for _, f := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
	}
	return all
}

func TestREADMEIsShort(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move guides into docs/ and link them", n, readmeMaxLines)
	}
}

var (
	fencedBlock = regexp.MustCompile("(?ms)^```.*?^```")
	codeSpan    = regexp.MustCompile("`[^`\n]*`")
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading   = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
)

// prose is a Markdown text without its fenced blocks and code spans, where
// neither links nor headings are written.
func prose(md string) string {
	return codeSpan.ReplaceAllString(fencedBlock.ReplaceAllString(md, ""), "")
}

// TestDocLinks checks that every relative link of README.md and docs/*.md
// names a file or folder of the repository, and that a #fragment names a
// heading of the Markdown file it points into.
func TestDocLinks(t *testing.T) {
	root := repoRoot(t)
	anchors := map[string]map[string]bool{} // Markdown file → heading anchors
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		a := map[string]bool{}
		for _, m := range mdHeading.FindAllStringSubmatch(fencedBlock.ReplaceAllString(string(b), ""), -1) {
			a[headingAnchor(m[1])] = true
		}
		anchors[file] = a
		return a
	}
	for _, file := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(string(b)), -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			target, fragment, _ := strings.Cut(link, "#")
			if target == "" {
				target = file
			} else {
				target = path.Join(path.Dir(file), target)
			}
			if pendingDocs[target] {
				continue
			}
			if strings.HasPrefix(target, "../") {
				t.Errorf("%s: link %s leaves the repository", file, link)
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link %s names %s, which does not exist", file, link, target)
				continue
			}
			if fragment != "" && strings.HasSuffix(target, ".md") && !anchorsOf(target)[fragment] {
				t.Errorf("%s: link %s names no heading of %s", file, link, target)
			}
		}
	}
}

// headingAnchor is the fragment GitHub gives a heading: its text without
// Markdown code marks, lower-cased, with every character that is not a letter,
// digit, space, hyphen or underscore removed and each space written "-".
func headingAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestHeadingAnchor(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Set up once", "set-up-once"},
		{"The extractive baseline of `ask`, measured", "the-extractive-baseline-of-ask-measured"},
		{"Real conversations: LoCoMo and RealPersonaChat", "real-conversations-locomo-and-realpersonachat"},
		{"Beyond one seed: what the synthetic results can and cannot say", "beyond-one-seed-what-the-synthetic-results-can-and-cannot-say"},
		{"trec_eval", "trec_eval"},
		{"Your memory as a tool for assistants (MCP)", "your-memory-as-a-tool-for-assistants-mcp"},
		{"保険証 の 場所", "保険証-の-場所"},
	} {
		if got := headingAnchor(c.heading); got != c.want {
			t.Errorf("headingAnchor(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

// packagesSection is the heading of docs/ARCHITECTURE.md's package table.
const packagesSection = "## Packages"

// TestPackageTable checks that the package table of docs/ARCHITECTURE.md
// names every package under lib/ and no package that is not there.
func TestPackageTable(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+packagesSection+"\n")
	if !ok {
		t.Fatalf("docs/ARCHITECTURE.md has no %q section", packagesSection)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`(lib/[^`]+)`").FindAllStringSubmatch(cells[1], -1) {
			if listed[m[1]] {
				t.Errorf("docs/ARCHITECTURE.md lists %s twice", m[1])
			}
			listed[m[1]] = true
		}
	}
	present := libPackages(t, root)
	for _, p := range present {
		if !listed[p] {
			t.Errorf("%s is missing from the package table of docs/ARCHITECTURE.md", p)
		}
		delete(listed, p)
	}
	for p := range listed {
		t.Errorf("docs/ARCHITECTURE.md lists %s, which is not a package under lib/", p)
	}
}

// libPackages are the folders under lib/ holding a non-test Go file, relative
// to root with slashes, sorted.
func libPackages(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "lib"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := make([]string, 0, len(seen))
	for p := range seen {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	return pkgs
}
