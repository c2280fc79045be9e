package retrieval_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/retrieval"
)

// TestBuilderIndexDir checks that a Builder with an index folder stores its
// BM25 index there, that the next Builder over the same corpus reads it and
// ranks identically, and that a changed text replaces it.
func TestBuilderIndexDir(t *testing.T) {
	dir := t.TempDir()
	chunks := []chat.Chunk{
		{ID: "c1", Source: "s", Index: 0, StartAt: "2024-01-01T10:00:00", RawText: "文化祭 の ポスター 締切"},
		{ID: "c2", Source: "s", Index: 1, StartAt: "2024-01-02T10:00:00", RawText: "ポスター 印刷 ポスター"},
		{ID: "c3", Source: "s", Index: 2, StartAt: "2024-01-02T10:00:00", RawText: "夕飯 カレー"},
	}
	search := func(chunks []chat.Chunk, query string) any {
		t.Helper()
		b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks}, nil, retrieval.Options{IndexDir: dir})
		r, err := b.Build("raw_text_bm25")
		if err != nil {
			t.Fatal(err)
		}
		hits, err := r.Search(query, 0)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	files := func() []string {
		f, _ := filepath.Glob(filepath.Join(dir, "bm25-raw_text-paper-regex*"))
		return f
	}
	built := search(chunks, "ポスター")
	first := files()
	if len(first) != 1 {
		t.Fatalf("index files %v, want one", first)
	}
	before, _ := os.ReadFile(first[0])
	if read := search(chunks, "ポスター"); !reflect.DeepEqual(read, built) {
		t.Errorf("from the index file: %v, want %v", read, built)
	}
	changed := append([]chat.Chunk(nil), chunks...)
	changed[2].RawText = "ポスター カレー"
	want := search(changed, "カレー")
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: changed}, nil, retrieval.Options{IndexDir: "-"})
	if got := b.IndexDir(); got != "-" {
		t.Errorf("IndexDir() = %q without a folder, want -", got)
	}
	if got := retrieval.NewBuilder(retrieval.Corpus{}, nil, retrieval.Options{IndexDir: dir}).IndexDir(); got != dir {
		t.Errorf("IndexDir() = %q, want %q", got, dir)
	}
	r, _ := b.Build("raw_text_bm25")
	if fresh, _ := r.Search("カレー", 0); !reflect.DeepEqual(want, fresh) {
		t.Errorf("after a change: %v, want %v (built without a folder)", want, fresh)
	}
	if now := files(); len(now) != 1 {
		t.Errorf("index files after a change %v, want one", now)
	} else if after, _ := os.ReadFile(now[0]); bytes.Equal(after, before) {
		t.Error("the index file was not rewritten after a change")
	}
}
