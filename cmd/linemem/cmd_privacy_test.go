package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestBaseURLPasswordMasked: a password in OPENAI_BASE_URL's userinfo is not
// printed by the refusal or the dry run of summarize and embed.
func TestBaseURLPasswordMasked(t *testing.T) {
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	// A host off this machine: every command refuses or plans, naming the
	// URL with its password masked (nothing is sent).
	t.Setenv("OPENAI_BASE_URL", "http://me:s3cret-pass@embeddings.invalid:9/v1")
	for _, args := range [][]string{
		{"summarize", "--db", db, "--provider", "openai"},
		{"summarize", "--db", db, "--provider", "openai", "--dry-run"},
		{"embed", "--db", db, "--provider", "openai", "--rep", "raw_text"},
		{"embed", "--db", db, "--provider", "openai", "--rep", "raw_text", "--dry-run"},
	} {
		_, stdout, stderr := ingestSideRun(t, args...)
		if out := stdout + stderr; strings.Contains(out, "s3cret-pass") || !strings.Contains(out, "me:xxxxx@embeddings.invalid:9") {
			t.Errorf("%s printed:\n%s", strings.Join(args, " "), out)
		}
	}
	// A loopback embedder is local and is called (nothing listens on port
	// 9): its error names the URL without the password.
	t.Setenv("OPENAI_BASE_URL", "http://me:s3cret-pass@127.0.0.1:9/v1")
	args := []string{"embed", "--db", db, "--provider", "openai", "--rep", "raw_text"}
	if _, stdout, stderr := ingestSideRun(t, args...); strings.Contains(stdout+stderr, "s3cret-pass") || !strings.Contains(stdout+stderr, "127.0.0.1:9") {
		t.Errorf("%s on loopback printed:\n%s", strings.Join(args, " "), stdout+stderr)
	}
}

// TestHistoryFilesAreOwnerOnly: the database ingest creates and the derived
// index a search writes beside it are readable by their owner only (0600
// files, 0700 folders), whatever the umask lets through.
func TestHistoryFilesAreOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "me.db")
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	ingestSideMust(t, "search", "--db", db, "締切")
	found := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", strings.TrimPrefix(path, dir), got, want)
		}
		found++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 2 {
		t.Errorf("%d files beside the database, want it and its derived index", found)
	}
}
