package reproduce_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/reproduce"
)

// TestPrepareMissingGold: a shipped qrels row whose chunk is not in the
// corpus stops Prepare with FILE:LINE, unless AllowMissingGold turns it into
// a warning.
func TestPrepareMissingGold(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "sources"), os.DirFS(conformance.Path("sources"))); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"questions.jsonl", "summaries.jsonl", "vectors_summary.jsonl", "vectors_embedding_text.jsonl", "query_vectors.jsonl", "qrels.txt"} {
		data, err := os.ReadFile(conformance.Path(name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "qrels.txt" {
			data = append([]byte("q02 0 deadbeefdeadbeef 2\n"), data...) // line 1
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "r.db")
	_, err := reproduce.Prepare(reproduce.Options{DataDir: dir, DBPath: db})
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != filepath.Join(dir, "qrels.txt") || ie.Line != 1 {
		t.Fatalf("Prepare = %v, want an input error at qrels.txt:1", err)
	}
	var log bytes.Buffer
	s, err := reproduce.Prepare(reproduce.Options{DataDir: dir, DBPath: db, AllowMissingGold: true, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(log.String(), "warning: gold chunk deadbeefdeadbeef of q02") {
		t.Errorf("log lacks the warning:\n%s", log.String())
	}
}
