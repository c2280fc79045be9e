package reproduce

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// modulePath is the module whose source CodeHash covers.
const modulePath = "github.com/linemem/linemem"

// CodeTrees are the folders of the module root that CodeHash covers, beside
// go.mod and go.sum.
var CodeTrees = []string{"lib", "cmd"}

// Code identifies the source that computed a reproduction by its content,
// not by a commit: a manifest committed beside the results it describes
// names the code of that same commit, and two checkouts of one tree agree.
type Code struct {
	SHA256 string `json:"sha256"`
	Files  int    `json:"files"`
	Covers string `json:"covers"`
}

// codeCovers says in the manifest which files Code.SHA256 is over.
const codeCovers = "go.mod, go.sum and every file under lib/ and cmd/ except *_test.go, *.md, testdata/ and names starting with a dot"

// CodeHash hashes the module source under root: go.mod, go.sum and every
// file under CodeTrees except tests (*_test.go), Markdown (*.md), testdata/
// folders and names starting with a dot, which cannot change what a build
// computes. Files are taken in byte order of their slash-separated paths
// relative to root; the hash is
//
//	SHA-256( Σ path ‖ NUL ‖ hex(SHA-256(content)) ‖ LF )
//
// (‖ concatenation, Σ over the files in that order). A missing go.mod or
// CodeTree is an error naming it.
func CodeHash(root string) (Code, error) {
	files := []string{"go.mod", "go.sum"}
	for _, tree := range CodeTrees {
		err := filepath.WalkDir(filepath.Join(root, tree), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if strings.HasPrefix(name, ".") || name == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".md") || !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return Code{}, fmt.Errorf("reproduce: hashing the code: %w", err)
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return Code{}, fmt.Errorf("reproduce: hashing the code: %w", err)
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(h, "%s\x00%s\n", rel, hex.EncodeToString(sum[:]))
	}
	return Code{SHA256: hex.EncodeToString(h.Sum(nil)), Files: len(files), Covers: codeCovers}, nil
}

// ModuleRoot returns the folder of the go.mod that declares modulePath: the
// one this package was compiled from when its path is known (no -trimpath),
// else the first of dir and its parents.
func ModuleRoot(dir string) (string, error) {
	var candidates []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		candidates = append(candidates, filepath.Dir(filepath.Dir(filepath.Dir(file))))
	}
	if abs, err := filepath.Abs(dir); err == nil {
		for d := abs; ; d = filepath.Dir(d) {
			candidates = append(candidates, d)
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range candidates {
		if declaresModule(filepath.Join(d, "go.mod")) {
			return d, nil
		}
	}
	return "", fmt.Errorf("reproduce: no go.mod declaring %s above %s", modulePath, dir)
}

// declaresModule reports whether the go.mod at p starts with
// `module modulePath`.
func declaresModule(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == "module" {
			return path.Clean(strings.Trim(f[1], `"`)) == modulePath
		}
	}
	return false
}

// codeOf is the Code of the module source reproduce runs from, found by
// ModuleRoot from the working directory; without one its hash is "unknown"
// (the reason is not recorded: it would name a local path).
func codeOf() Code {
	root, err := ModuleRoot(".")
	if err == nil {
		var c Code
		if c, err = CodeHash(root); err == nil {
			return c
		}
	}
	return Code{SHA256: "unknown", Covers: "no source of " + modulePath + " found from the working directory"}
}
