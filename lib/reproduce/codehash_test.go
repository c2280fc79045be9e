package reproduce_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linemem/linemem/lib/reproduce"
)

// writeTree writes files (slash paths → content) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCodeHashIsTheDocumentedFormula(t *testing.T) {
	base := map[string]string{
		"go.mod":           "module github.com/linemem/linemem\n",
		"go.sum":           "x v1 h1:abc\n",
		"lib/a/a.go":       "package a\n",
		"lib/a/prompt.txt": "プロンプト\n",
		"cmd/c/main.go":    "package main\n",
	}
	line := func(rel string) string {
		sum := sha256.Sum256([]byte(base[rel]))
		return fmt.Sprintf("%s\x00%s\n", rel, hex.EncodeToString(sum[:]))
	}
	var all string
	for _, rel := range []string{"cmd/c/main.go", "go.mod", "go.sum", "lib/a/a.go", "lib/a/prompt.txt"} {
		all += line(rel)
	}
	want := sha256.Sum256([]byte(all))
	got, err := reproduce.CodeHash(writeTree(t, base))
	if err != nil {
		t.Fatal(err)
	}
	if got.SHA256 != hex.EncodeToString(want[:]) || got.Files != 5 {
		t.Fatalf("CodeHash = %+v, want sha256 %x over 5 files", got, want)
	}

	for _, tc := range []struct {
		name    string
		add     string
		changes bool
	}{
		{"a test file", "lib/a/a_test.go", false},
		{"testdata", "lib/a/testdata/x.json", false},
		{"Markdown", "lib/a/README.md", false},
		{"a dot-file", "lib/a/.swp", false},
		{"a hidden folder", "lib/.cache/x.go", false},
		{"a file outside lib/ and cmd/", "notebooks/x.ipynb", false},
		{"a source file", "lib/a/b.go", true},
		{"an embedded file", "cmd/c/templates/x.html", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{tc.add: "anything\n"}
			for k, v := range base {
				files[k] = v
			}
			c, err := reproduce.CodeHash(writeTree(t, files))
			if err != nil {
				t.Fatal(err)
			}
			if (c.SHA256 != got.SHA256) != tc.changes {
				t.Fatalf("adding %s: hash changed = %v, want %v", tc.add, c.SHA256 != got.SHA256, tc.changes)
			}
		})
	}
}

func TestCodeHashWithoutGoModIsAnError(t *testing.T) {
	if _, err := reproduce.CodeHash(writeTree(t, map[string]string{"lib/a/a.go": "package a\n"})); err == nil {
		t.Fatal("CodeHash of a tree without go.mod: no error")
	}
}

func TestModuleRootIsThisRepository(t *testing.T) {
	root, err := reproduce.ModuleRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "lib", "reproduce", "codehash.go")); err != nil {
		t.Fatalf("ModuleRoot = %s, which holds no lib/reproduce/codehash.go: %v", root, err)
	}
}
