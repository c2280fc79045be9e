package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	shBlock    = regexp.MustCompile("(?ms)^```sh\n(.*?)^```")
	shSegments = regexp.MustCompile(`\|\||&&|[|;]|\bdo\b`)
	flagWord   = regexp.MustCompile(`--[a-z][a-z0-9-]*`)
)

// documentedCommandLines returns, per Markdown file of README.md and
// docs/*.md, every command of its sh blocks that starts with `linemem` or
// `bin/linemem`: continuation lines joined, comments cut, pipelines and
// command lists split into their commands.
func documentedCommandLines(t *testing.T) map[string][][]string {
	t.Helper()
	root := filepath.Join("..", "..")
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][]string{}
	for _, path := range append([]string{filepath.Join(root, "README.md")}, guides...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		for _, block := range shBlock.FindAllStringSubmatch(string(b), -1) {
			for _, line := range strings.Split(strings.ReplaceAll(block[1], "\\\n", " "), "\n") {
				line, _, _ = strings.Cut(line, " #")
				for _, segment := range shSegments.Split(line, -1) {
					words := shellWords(strings.TrimSpace(segment))
					if len(words) > 0 && (words[0] == "linemem" || words[0] == "bin/linemem") {
						out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], words[1:])
					}
				}
			}
		}
	}
	return out
}

// TestDocumentedCommandLines checks every `linemem …` command that README.md
// and docs/*.md show in an sh block against the CLI: it names a registered
// command, and each of its --flags is one that the command's --help lists.
// The walk-throughs (walkthrough_test.go) run their commands; this holds the
// ones that need remote services, public data sets or a long run to the same
// command names and flags.
func TestDocumentedCommandLines(t *testing.T) {
	helpFlags := map[string]map[string]bool{} // command name → flags its --help lists
	documented := documentedCommandLines(t)
	if len(documented["README.md"]) == 0 {
		t.Fatal("README.md shows no linemem command in an sh block")
	}
	for file, lines := range documented {
		for _, words := range lines {
			shown := "linemem " + strings.Join(words, " ")
			if len(words) == 0 {
				t.Errorf("%s: %q names no command", file, shown)
				continue
			}
			c, args := lookup(words)
			if c == nil {
				t.Errorf("%s: %q: %q is not a command", file, shown, words[0])
				continue
			}
			flags, ok := helpFlags[c.name]
			if !ok {
				_, stdout, stderr := runCode(append(strings.Fields(c.name), "--help")...)
				flags = map[string]bool{}
				for _, f := range flagWord.FindAllString(stdout+stderr, -1) {
					flags[f] = true
				}
				helpFlags[c.name] = flags
			}
			for _, a := range args {
				if a == "--" {
					break
				}
				name, _, _ := strings.Cut(a, "=")
				if strings.HasPrefix(name, "--") && !flags[name] {
					t.Errorf("%s: %q: linemem %s --help lists no %s", file, shown, c.name, name)
				}
			}
		}
	}
}
