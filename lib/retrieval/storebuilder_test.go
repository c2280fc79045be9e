package retrieval_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// storeFixture is a database with two sources, a summary for every chunk
// and embedding_text vectors of model "m" for every chunk.
func storeFixture(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ingestSource(t, st, "a.json", 30, 1)
	ingestSource(t, st, "b.json", 20, 2)
	summarise(t, st, "まとめ")
	putVectors(t, st, 1)
	return st
}

var words = []string{"文化祭", "ポスター", "締切", "カレー", "夕飯", "試験", "レポート", "旅行", "金沢", "バイト"}

func ingestSource(t *testing.T, st *store.Store, name string, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	start := time.Date(2024, 3, 10, 10, 0, 0, 0, time.UTC)
	msgs := make([]chat.Message, n)
	for i := range msgs {
		at := start.Add(time.Duration(i) * 7 * time.Minute)
		text := words[rng.IntN(len(words))] + "の" + words[rng.IntN(len(words))]
		m := chat.Message{Source: name, SourceOrder: i, Date: at.Format(chat.DateLayout), Time: at.Format("15:04:05"),
			OccurredAt: at, Sender: "A", Type: chat.TextType, Text: text}
		m.ID = chat.MessageID(m)
		msgs[i] = m
	}
	opts := chunking.Options{GapMinutes: 180, Window: 6, Stride: 4, MaxChars: 5000}
	chunks, err := chunking.Build(msgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.IngestSource(name, fmt.Sprint(name, n, seed), int64(n), opts, msgs, chunks); err != nil {
		t.Fatal(err)
	}
}

func summarise(t *testing.T, st *store.Store, prefix string) {
	t.Helper()
	ids, err := st.ChunkIDs()
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]store.SummaryRow, len(ids))
	for i, id := range ids {
		rows[i] = store.SummaryRow{ChunkID: id, Summary: prefix + " " + words[i%len(words)], Origin: store.OriginImport}
	}
	if err := st.PutSummaries(rows); err != nil {
		t.Fatal(err)
	}
}

func putVectors(t *testing.T, st *store.Store, seed uint64) {
	t.Helper()
	ids, err := st.ChunkIDs()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 10))
	rows := make([]store.VectorRow, len(ids))
	for i, id := range ids {
		v := make([]float32, 8)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		rows[i] = store.VectorRow{Key: id, Vector: v}
	}
	if err := st.PutChunkVectors(store.RepEmbeddingText, "m", 0, rows); err != nil {
		t.Fatal(err)
	}
}

// queryVectors gives every question the same fixed vector.
type queryVectors struct{ *store.Store }

func (queryVectors) QueryVector(model, question string) ([]float32, bool, error) {
	return []float32{1, -1, 0.5, 0, 2, 0, -0.25, 1}, true, nil
}

var storeRetrievers = []string{"embedding_text_bm25", "raw_text_bm25", "embedding_text_vector", "hybrid:embedding_text_bm25+embedding_text_vector@0.45"}

// rankings runs a few questions through every storeRetrievers entry built by
// b, k = 0 and 3.
func rankings(t *testing.T, b *retrieval.Builder) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, name := range storeRetrievers {
		r, err := b.Build(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"文化祭のポスター", "カレー", "まとめ 試験"} {
			for _, k := range []int{0, 3} {
				hits, err := r.Search(q, k)
				if err != nil {
					t.Fatal(err)
				}
				out[fmt.Sprint(name, q, k)] = hits
			}
		}
	}
	return out
}

// fresh ranks with a Builder over the corpus read in full, keeping nothing.
func fresh(t *testing.T, st *store.Store) map[string]any {
	t.Helper()
	chunks, err := st.ChunksWithoutMembers()
	if err != nil {
		t.Fatal(err)
	}
	sums, err := st.Summaries()
	if err != nil {
		t.Fatal(err)
	}
	b := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: sums}, queryVectors{st}, retrieval.Options{Tokenizer: "char-bigram", EmbedModel: "m", IndexDir: "-"})
	return rankings(t, b)
}

func storeBuilder(st *store.Store) *retrieval.Builder {
	return retrieval.NewStoreBuilder(st, queryVectors{st}, retrieval.Options{Tokenizer: "char-bigram", EmbedModel: "m"})
}

// TestStoreBuilder checks that a Builder over a store ranks exactly like one
// over the corpus read in full, whether its indexes and matrices are built
// or opened from the derived folder; that an opened index is used without
// reading the corpus; that every write, a deleted folder and a damaged file
// lead back to the rankings of the current content; and that vectors which
// stop covering the chunks are an error.
func TestStoreBuilder(t *testing.T) {
	st := storeFixture(t)
	check := func(name string) {
		t.Helper()
		if got, want := rankings(t, storeBuilder(st)), fresh(t, st); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rankings differ from a Builder over the corpus read in full", name)
		}
	}
	derivedFiles := func() []string {
		f, _ := filepath.Glob(filepath.Join(st.DerivedDir(), "*"))
		return withoutLocks(f)
	}
	check("built")
	if n := len(derivedFiles()); n != 3 {
		t.Errorf("derived files %v, want 3 (two BM25 indexes, one matrix)", derivedFiles())
	}
	check("opened")

	// Texts changed behind the store's back (no version bump) are not
	// seen: the opened index is used without reading the corpus.
	before := rankings(t, storeBuilder(st))
	saved, err := st.ChunksWithoutMembers()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(`UPDATE chunks SET raw_text = 'カレー'`); err != nil {
		t.Fatal(err)
	}
	if got := rankings(t, storeBuilder(st)); !reflect.DeepEqual(got, before) {
		t.Error("a Builder over the store read the corpus although its indexes were on disk")
	}
	for _, c := range saved {
		if _, err := st.DB().Exec(`UPDATE chunks SET raw_text = ? WHERE chunk_id = ?`, c.RawText, c.ID); err != nil {
			t.Fatal(err)
		}
	}

	summarise(t, st, "要約") // a write: the embedding_text index is stale
	check("after a summary write")
	putVectors(t, st, 2)
	check("after a vector write")
	ingestSource(t, st, "c.json", 9, 3)
	summarise(t, st, "要約")
	b := storeBuilder(st)
	if _, err := b.Build("embedding_text_vector"); err == nil || !strings.Contains(err.Error(), "have no embedding_text vector") {
		t.Errorf("vectors not covering a new chunk: err = %v", err)
	}
	putVectors(t, st, 3)
	check("after an ingest")

	if err := os.RemoveAll(st.DerivedDir()); err != nil {
		t.Fatal(err)
	}
	check("after deleting the folder")
	for i, f := range derivedFiles() {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			b = b[:len(b)-3]
		} else {
			b[len(b)/2] ^= 1
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check("after damaging the files")
	check("after rewriting the damaged files")
}
