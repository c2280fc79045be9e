package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runBounded runs the CLI in-process and fails the test when it has not
// returned within limit (a read blocked on a named pipe).
func runBounded(t *testing.T, limit time.Duration, args ...string) (string, int) {
	t.Helper()
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := runMain(&environment{stdout: &out, stderr: &errOut}, args)
		done <- result{errOut.String(), code}
	}()
	select {
	case r := <-done:
		return r.stderr, r.code
	case <-time.After(limit):
		t.Fatalf("linemem %s: still running after %s", strings.Join(args, " "), limit)
		return "", 0
	}
}

// TestFileInputsRefuseNamedPipes: a named pipe given where a command reads
// a file is refused at once, as ingest does, instead of blocking for a
// writer that never comes.
func TestFileInputsRefuseNamedPipes(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	db := conformanceDB(t)
	for _, args := range [][]string{
		{"datasets", "convert", "locomo", fifo, filepath.Join(dir, "out")},
		{"datasets", "convert", "realpersonachat", fifo, filepath.Join(dir, "out")},
		{"gold", "judgments", "import", "--db", db, fifo},
		{"summaries", "import", "--db", db, fifo},
		{"vectors", "import", "--db", db, "--rep", "summary", "--model", "m", fifo},
		{"gold", "pool", "--db", db, "--questions", fifo, "--evidence", fifo},
	} {
		stderr, code := runBounded(t, 20*time.Second, args...)
		if code == 0 || !strings.Contains(stderr, "named pipe") {
			t.Errorf("linemem %s: exit %d, stderr %q; want a refusal naming the named pipe", strings.Join(args[:2], " "), code, stderr)
		}
	}
}

// tree lists the files under dir (relative, slash-separated) with their
// content, or nil when dir is missing.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestDatasetsConvertIsAtomic: a convert that fails leaves an earlier
// conversion in OUT byte for byte and writes nothing beside it; a convert
// over an earlier one leaves exactly the files of a fresh one; concurrent
// converts into one OUT leave one complete conversion.
func TestDatasetsConvertIsAtomic(t *testing.T) {
	rpc := filepath.Join("..", "..", "lib", "datasets", "testdata", "rpc_small.jsonl")
	locomo := filepath.Join("..", "..", "lib", "datasets", "testdata", "locomo_small.json")
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if _, stderr, code := goldCLI("datasets", "convert", "realpersonachat", rpc, out, "--per-user", "--users", "3", "--questions", "2"); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	earlier := tree(t, out)
	bad := filepath.Join(t.TempDir(), "locomo10.json")
	b, _ := os.ReadFile(locomo)
	os.WriteFile(bad, bytes.Replace(b, []byte(`"conv-x"`), []byte(`"../../x"`), 1), 0o644)
	if _, stderr, code := goldCLI("datasets", "convert", "locomo", bad, out, "--per-user"); code != 1 || !strings.Contains(stderr, "plain name") {
		t.Errorf("convert of a sample_id ../../x: exit %d, stderr %q; want 1 and the reason", code, stderr)
	}
	if !sameTree(tree(t, out), earlier) {
		t.Errorf("a refused convert changed the earlier conversion")
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("beside OUT after a refused convert: %v, want [out]", got)
	}

	fresh := filepath.Join(t.TempDir(), "fresh")
	if _, stderr, code := goldCLI("datasets", "convert", "locomo", locomo, fresh, "--per-user"); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	if _, stderr, code := goldCLI("datasets", "convert", "locomo", locomo, out, "--per-user"); code != 0 {
		t.Fatalf("convert over an earlier conversion: exit %d: %s", code, stderr)
	}
	if !sameTree(tree(t, out), tree(t, fresh)) {
		t.Errorf("a convert over an earlier conversion differs from a fresh one")
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"out"}) {
		t.Errorf("beside OUT after a convert: %v, want [out]", got)
	}

	other := filepath.Join(t.TempDir(), "other")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	if _, stderr, code := goldCLI("datasets", "convert", "locomo", locomo, other); code != 1 || !strings.Contains(stderr, "not empty") {
		t.Errorf("convert into a folder of other files: exit %d, stderr %q; want 1 and the reason", code, stderr)
	}
	if got := tree(t, other); !sameTree(got, map[string]string{"notes.txt": "mine"}) {
		t.Errorf("a refused folder holds %v afterwards", got)
	}

	const writers = 4
	codes := make(chan string, writers)
	for range writers {
		go func() {
			_, stderr, code := goldCLI("datasets", "convert", "locomo", locomo, out, "--per-user")
			if code != 0 && !strings.Contains(stderr, "another writer") {
				codes <- stderr
				return
			}
			codes <- ""
		}()
	}
	for range writers {
		if msg := <-codes; msg != "" {
			t.Errorf("concurrent convert failed otherwise than refused: %s", msg)
		}
	}
	if !sameTree(tree(t, out), tree(t, fresh)) {
		t.Errorf("after concurrent converts OUT is not one complete conversion")
	}
}
