package memory_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/store"
)

// historyStore ingests the 16-chunk fixture history and stores raw_text
// vectors of its local model, as `linemem embed --provider lsa --rep
// raw_text` does.
func historyStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "me.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	inputs, problems := ingest.Collect([]string{filepath.Join("..", "..", "testdata", "history")})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	ingest.Files(st, inputs, chunking.DefaultOptions(), func(_ int, _ ingest.Input, _ ingest.Report, err error) {
		if err != nil {
			t.Fatal(err)
		}
	})
	chunks, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	texts, _, err := lsa.FitTexts(chunks, nil, represent.RawText, represent.DefaultEmbeddingCap)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.Open(st.DB())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := lsa.Prepare(ctx, c, texts, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Save(ctx, c); err != nil {
		t.Fatal(err)
	}
	rows := make([]store.VectorRow, len(chunks))
	for i, ch := range chunks {
		rows[i] = store.VectorRow{Key: ch.ID, Vector: m.Vector(texts[i])}
	}
	if err := st.PutChunkVectors(represent.RawText, m.Model.Model(), represent.DefaultEmbeddingCap, rows); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestZeroQueryVectorWarns: a question with no term of the local model's
// vocabulary gets the zero vector, every cosine is 0 and the order means
// nothing; the response says so.
func TestZeroQueryVectorWarns(t *testing.T) {
	st := historyStore(t)
	m, err := memory.Open(st, memory.Options{Retriever: "raw_text_vector"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		question string
		warn     bool
	}{{"zqzqzq", true}, {"保険証どこ", false}} {
		resp, err := m.Search(context.Background(), memory.Query{Text: tc.question, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		warned := len(resp.Warnings) == 1 && strings.Contains(resp.Warnings[0], "vector is zero")
		if warned != tc.warn {
			t.Errorf("%q: warnings %q, want a zero-vector warning: %v", tc.question, resp.Warnings, tc.warn)
		}
	}
}

// TestEverydayDefaults: without a retriever or tokenizer the search uses the
// documented defaults and finds a single-kanji word the paper's tokenizer
// drops.
func TestEverydayDefaults(t *testing.T) {
	st := historyStore(t)
	m, err := memory.Open(st, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Retriever() != "raw_text_bm25" || m.Tokenizer() != memory.DefaultTokenizer {
		t.Errorf("defaults %s / %s, want raw_text_bm25 / %s", m.Retriever(), m.Tokenizer(), memory.DefaultTokenizer)
	}
	resp, err := m.Search(context.Background(), memory.Query{Text: "鍋", K: 1})
	if err != nil || len(resp.Results) != 1 || !strings.Contains(resp.Results[0].RawText, "鍋にしよう") {
		t.Errorf("鍋: %+v, %v; want the chunk that plans the 鍋", resp.Results, err)
	}
}
