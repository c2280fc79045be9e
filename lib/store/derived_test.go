package store_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/store"
)

// TestLookups checks the by-ID and cheap readers against the full ones:
// ChunksByID against Chunks, ChunkSpans against ChunksWithoutMembers,
// Counts and ChunkVectorModels against Stats.
func TestLookups(t *testing.T) {
	st, ids := corpus(t)
	ingest(t, st, "t.json", "sha2", smallOptions, messages("t.json", 5, "n"))
	all, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]chat.Chunk{}
	for _, c := range all {
		want[c.ID] = c
	}
	pick := []string{all[len(all)-1].ID, "no-such-chunk", all[0].ID, all[1].ID}
	got, err := st.ChunksByID(pick)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Errorf("ChunksByID found %d chunks, want 3", len(got))
	}
	for _, id := range pick {
		if w, ok := want[id]; ok && !reflect.DeepEqual(got[id], w) {
			t.Errorf("ChunksByID[%s] = %+v, want %+v", id, got[id], w)
		}
	}
	spans, err := st.ChunkSpans()
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != len(all) {
		t.Fatalf("%d spans, want %d", len(spans), len(all))
	}
	for i, c := range all {
		if w := (store.ChunkSpan{ID: c.ID, Source: c.Source, StartAt: c.StartAt, EndAt: c.EndAt}); spans[i] != w {
			t.Errorf("span %d = %+v, want %+v", i, spans[i], w)
		}
	}

	countsAndModels := func() (int, int, []string) {
		t.Helper()
		c, s, err := st.Counts()
		if err != nil {
			t.Fatal(err)
		}
		m, err := st.ChunkVectorModels()
		if err != nil {
			t.Fatal(err)
		}
		return c, s, m
	}
	if c, s, m := countsAndModels(); c != len(all) || s != 0 || len(m) != 0 {
		t.Errorf("Counts, models = %d, %d, %v; want %d, 0, none", c, s, m, len(all))
	}
	if err := st.PutSummaries([]store.SummaryRow{{ChunkID: ids[0], Summary: "s", Origin: store.OriginImport}}); err != nil {
		t.Fatal(err)
	}
	for _, set := range []struct{ rep, model string }{{store.RepSummary, "m/2"}, {store.RepRawText, "m/1"}, {store.RepSummary, "m/1"}, {store.RepEmbeddingText, "a"}} {
		if err := st.PutChunkVectors(set.rep, set.model, 0, []store.VectorRow{{Key: ids[0], Vector: []float32{1}}}); err != nil {
			t.Fatal(err)
		}
	}
	stats, err := st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	var models []string
	for _, set := range stats.VectorSets {
		models = append(models, set.Model)
	}
	slices.Sort(models)
	models = slices.Compact(models)
	if c, s, m := countsAndModels(); c != stats.Chunks || s != stats.Summaries || !slices.Equal(m, models) {
		t.Errorf("Counts, models = %d, %d, %v; Stats says %d, %d, %v", c, s, m, stats.Chunks, stats.Summaries, models)
	}
}

// TestContentKey checks that ContentKey changes with a write to its kinds
// only.
func TestContentKey(t *testing.T) {
	st, ids := corpus(t)
	key := func(kinds ...string) string {
		k, err := st.ContentKey(kinds...)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	chunks, vectors := key(store.ContentChunks), key(store.ContentVectors)
	if err := st.PutSummaries([]store.SummaryRow{{ChunkID: ids[0], Summary: "s", Origin: store.OriginImport}}); err != nil {
		t.Fatal(err)
	}
	if key(store.ContentChunks) != chunks || key(store.ContentVectors) != vectors {
		t.Error("a summary write changed the chunk or vector key")
	}
	if err := st.PutChunkVectors(store.RepSummary, "m", 0, []store.VectorRow{{Key: ids[0], Vector: []float32{1}}}); err != nil {
		t.Fatal(err)
	}
	if key(store.ContentVectors) == vectors {
		t.Error("a vector write left the vector key unchanged")
	}
	// A copy of the database (a backup restored) shares its identity;
	// versions are random rather than counted, so the copy and the
	// original, each written once more, still have different keys.
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if _, err := st.DB().Exec(`VACUUM INTO ?`, copyPath); err != nil {
		t.Fatal(err)
	}
	cp, err := store.Open(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	for _, s := range []*store.Store{st, cp} {
		if err := s.PutChunkVectors(store.RepSummary, "m", 0, []store.VectorRow{{Key: ids[0], Vector: []float32{2}}}); err != nil {
			t.Fatal(err)
		}
	}
	if k, err := cp.ContentKey(store.ContentVectors); err != nil || k == key(store.ContentVectors) {
		t.Errorf("a copy and its original, each written once, share the key %s (err %v)", k, err)
	}
	other := openTemp(t)
	k, err := other.ContentKey(store.ContentChunks)
	if err != nil {
		t.Fatal(err)
	}
	if k == key(store.ContentChunks) {
		t.Errorf("two databases share the key %s", k)
	}
}

// TestChunksMemberSeparator checks that Chunks returns member IDs in window
// order even when an ID holds the character that joins them in the query.
func TestChunksMemberSeparator(t *testing.T) {
	st := openTemp(t)
	msgs := messages("s.json", 7, "m")
	for i := range msgs {
		if i%2 == 0 {
			msgs[i].ID = fmt.Sprintf("id\x1f%d,", i)
		}
	}
	in, _ := ingest(t, st, "s.json", "sha", smallOptions, msgs)
	got, err := st.Chunks()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in.chunks) {
		t.Fatalf("%d chunks, want %d", len(got), len(in.chunks))
	}
	for i, c := range got {
		if !slices.Equal(c.MessageIDs, in.chunks[i].MessageIDs) {
			t.Errorf("chunk %d members %q, want %q", i, c.MessageIDs, in.chunks[i].MessageIDs)
		}
	}
}
