package retrieval_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/ranking"
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
		return withoutLocks(f)
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

// withoutLocks drops the lock files that sit beside derived files.
func withoutLocks(paths []string) []string {
	return slices.DeleteFunc(paths, func(p string) bool { return strings.HasSuffix(p, ".lock") })
}

// keyedVectors is a vector source with a content key whose ChunkVectors is
// slow enough for two Builders to ask for the same matrix at once.
type keyedVectors struct{ memVectors }

func (k *keyedVectors) ContentKey(...string) (string, error) { return "v1", nil }

func (k *keyedVectors) ChunkVectors(rep, model string) ([]string, int, []float32, error) {
	time.Sleep(50 * time.Millisecond)
	return k.memVectors.ChunkVectors(rep, model)
}

// TestDerivedFileBuiltOnceAcrossBuilders has two Builders over one index
// folder, as two processes would be, need the same missing matrix at once:
// it is read from the vector source once, and both get equal matrices.
func TestDerivedFileBuiltOnceAcrossBuilders(t *testing.T) {
	dir := t.TempDir()
	vs := &keyedVectors{memVectors{ids: []string{"c1", "c2"}, dim: 2, data: []float32{1, 0, 0, 1}, queries: map[string][]float32{"数学": {1, 0}}}}
	corpus := smallCorpus()
	var wg sync.WaitGroup
	hits := make([][]ranking.Hit, 2)
	for i := range hits {
		b := retrieval.NewBuilder(corpus, vs, retrieval.Options{EmbedModel: "m", IndexDir: dir})
		wg.Go(func() {
			r, err := b.Build("summary_vector")
			if err == nil {
				hits[i], err = r.Search("数学", 2)
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := vs.calls.Load(); n != 1 {
		t.Errorf("vectors read %d times by two Builders at once, want once", n)
	}
	if !reflect.DeepEqual(hits[0], hits[1]) {
		t.Errorf("the two Builders rank differently: %v and %v", hits[0], hits[1])
	}
}

// TestBuilderBM25Params checks that Options.BM25 sets the parameters of
// every BM25 index a Builder builds or reads from its index folder (a file
// holds no parameters), and that the zero value is spec §9's.
func TestBuilderBM25Params(t *testing.T) {
	dir := t.TempDir()
	chunks := []chat.Chunk{
		{ID: "c1", Source: "s", Index: 0, StartAt: "2024-01-01T10:00:00", RawText: "ポスター 締切 ポスター ポスター"},
		{ID: "c2", Source: "s", Index: 1, StartAt: "2024-01-02T10:00:00", RawText: "ポスター 印刷"},
	}
	everyday := bm25.Params{K1: 0.8, B: 0.5}
	for _, c := range []struct {
		name   string
		opts   retrieval.Options
		params bm25.Params
	}{
		{"zero value, built", retrieval.Options{IndexDir: dir}, bm25.SpecParams()},
		{"other parameters, read from the folder", retrieval.Options{IndexDir: dir, BM25: everyday}, everyday},
		{"other parameters, no folder", retrieval.Options{IndexDir: "-", BM25: everyday}, everyday},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks}, nil, c.opts).Build("raw_text_bm25")
			if err != nil {
				t.Fatal(err)
			}
			ix := r.(retrieval.Lexical).LexicalIndex()
			if got := ix.Params(); got != c.params {
				t.Errorf("Params() = %v, want %v", got, c.params)
			}
			hits, err := r.Search("ポスター", 0)
			if err != nil {
				t.Fatal(err)
			}
			docs := []bm25.Doc{{ID: "c1", StartAt: chunks[0].StartAt, Text: chunks[0].RawText}, {ID: "c2", StartAt: chunks[1].StartAt, Text: chunks[1].RawText}}
			want := bm25.NewWith(docs, ix.Tokenizer(), c.params).Search("ポスター", 0)
			if !reflect.DeepEqual(hits, want) {
				t.Errorf("hits %v, want %v", hits, want)
			}
		})
	}
}
