package study_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/study"
)

// TestPrepareMissingGold: a shipped qrels row whose chunk is not in the
// corpus stops Prepare with FILE:LINE, unless AllowMissingGold turns it into
// a warning.
func TestPrepareMissingGold(t *testing.T) {
	dir := conformanceData(t)
	db := filepath.Join(t.TempDir(), "r.db")
	_, err := study.Prepare(study.PaperOptions(dir, db))
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != filepath.Join(dir, "qrels.txt") || ie.Line != 1 {
		t.Fatalf("Prepare = %v, want an input error at qrels.txt:1", err)
	}
	var log bytes.Buffer
	opts := study.PaperOptions(dir, db)
	opts.AllowMissingGold, opts.Log = true, &log
	s, err := study.Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(log.String(), "warning: gold chunk deadbeefdeadbeef of q02") {
		t.Errorf("log lacks the warning:\n%s", log.String())
	}
}

// TestSourceLabels: Study.Inputs, the manifest's data list, names sources by
// position, hash and size; SourceNames keeps the file names.
func TestSourceLabels(t *testing.T) {
	dir := conformanceData(t)
	db := filepath.Join(t.TempDir(), "r.db")
	names := []string{"chat_sakura.json", "club_group.json", "family.json"} // lexical order
	for _, private := range []bool{false, true} {
		opts := study.PaperOptions(dir, db)
		opts.AllowMissingGold, opts.SourceNames = true, private
		s, err := study.Prepare(opts)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		var got []string
		for _, in := range s.Inputs {
			if strings.HasPrefix(in.Path, "sources/") {
				got = append(got, in.Path)
				if len(in.SHA256) != 64 || in.Bytes == 0 {
					t.Errorf("%s: hash %q, %d bytes", in.Path, in.SHA256, in.Bytes)
				}
			}
		}
		for i, name := range names {
			want := study.SourceLabel(i)
			if private {
				want = "sources/" + name
			}
			if i >= len(got) || got[i] != want {
				t.Errorf("SourceNames=%v: sources listed as %v, want %s at %d", private, got, want, i)
			}
		}
		if !private && study.SourceLabel(0) != "sources/#001" {
			t.Errorf("SourceLabel(0) = %s", study.SourceLabel(0))
		}
	}
}

// conformanceData lays out a data folder from the conformance pack,
// with a first qrels row whose chunk is not in the corpus.
func conformanceData(t *testing.T) string {
	t.Helper()
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
	return dir
}
