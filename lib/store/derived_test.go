package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// TestChunkVectorsMatrixFile checks that the matrix file kept in DerivedDir
// serves exactly what the database holds, follows every write, and that
// deleting or damaging it loses nothing.
func TestChunkVectorsMatrixFile(t *testing.T) {
	st, ids := corpus(t)
	put := func(scale float32) [][]float32 {
		rows := make([]store.VectorRow, len(ids))
		want := make([][]float32, len(ids))
		for i, id := range ids {
			want[i] = []float32{scale * float32(i+1), -0.5, 1e-30}
			rows[i] = store.VectorRow{Key: id, Vector: want[i]}
		}
		if err := st.PutChunkVectors(store.RepSummary, "m/1", 0, rows); err != nil {
			t.Fatal(err)
		}
		return want
	}
	check := func(name string, want [][]float32) {
		t.Helper()
		gotIDs, dim, data, err := st.ChunkVectors(store.RepSummary, "m/1")
		if err != nil {
			t.Fatal(err)
		}
		var flat []float32
		for _, v := range want {
			flat = append(flat, v...)
		}
		if dim != 3 || !slices.Equal(gotIDs, slices.Sorted(slices.Values(ids))) || !slices.Equal(data, flat) {
			t.Errorf("%s: ChunkVectors = %v %d %v, want %v 3 %v", name, gotIDs, dim, data, ids, flat)
		}
	}
	matrixFiles := func() []string {
		files, _ := filepath.Glob(filepath.Join(st.DerivedDir(), "vectors-summary-*.f32"))
		return files
	}

	want := put(1)
	check("from the database", want)
	if n := len(matrixFiles()); n != 1 {
		t.Fatalf("%d matrix files after the first read, want 1", n)
	}
	check("from the matrix file", want)

	want = put(2) // a write makes the file stale
	check("after a write", want)

	if err := os.RemoveAll(st.DerivedDir()); err != nil {
		t.Fatal(err)
	}
	check("after deleting the folder", want)

	for _, f := range matrixFiles() {
		b, _ := os.ReadFile(f)
		if err := os.WriteFile(f, b[:len(b)-3], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check("after truncating the file", want)
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
