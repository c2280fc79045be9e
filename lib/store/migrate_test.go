package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// TestMigrationKeepsVectors writes a database at schema version 3 (vectors
// in the clustered WITHOUT ROWID table) with chunk and query vectors, opens
// it, and checks that every vector reads back with the same bits, that each
// chunk vector became a block of one (schema version 6), and that removing a
// chunk still removes its vectors.
func TestMigrationKeepsVectors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := raw.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, m := range migrations[:3] {
		exec(m)
	}
	exec(`PRAGMA user_version = 3`)
	exec(`INSERT INTO sources VALUES ('s.json', 'sha', 1, '{}', '2024-01-01T00:00:00Z')`)
	ids := []string{"c2", "c0", "c1"}
	vec := func(rep string, i int) []float32 {
		v := make([]float32, 4)
		for j := range v {
			v[j] = float32(i*10+j) / 3
			if rep == RepSummary {
				v[j] = -v[j]
			}
		}
		return v
	}
	for i, id := range ids {
		exec(`INSERT INTO chunks VALUES (?, 's.json', ?, '', '', 'text')`, id, i)
		for _, rep := range []string{RepSummary, RepEmbeddingText} {
			exec(`INSERT INTO vectors VALUES (?, 'm', ?, 4, 8192, ?)`, rep, id, encodeVector(vec(rep, i)))
		}
	}
	exec(`INSERT INTO query_vectors VALUES ('m', 'q?', 4, ?)`, encodeVector(vec("", 7)))
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}

	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var version, blocks, slots int
	st.DB().QueryRow(`PRAGMA user_version`).Scan(&version)
	st.DB().QueryRow(`SELECT (SELECT count(*) FROM vector_blocks WHERE length(vecs) = 4 * 4), (SELECT count(DISTINCT block) FROM vectors WHERE slot = 0)`).Scan(&blocks, &slots)
	if want := 2 * len(ids); version != SchemaVersion() || blocks != want || slots != want {
		t.Errorf("after Open: user_version %d (want %d), %d one-vector blocks and %d chunk rows at slot 0 of their own block (want %d)", version, SchemaVersion(), blocks, slots, want)
	}
	sorted := slices.Sorted(slices.Values(ids))
	for _, rep := range []string{RepSummary, RepEmbeddingText} {
		gotIDs, dim, data, err := chunkVectors(st.DB(), rep, "m")
		if err != nil {
			t.Fatal(err)
		}
		var want []float32
		for _, id := range sorted {
			want = append(want, vec(rep, slices.Index(ids, id))...)
		}
		if !slices.Equal(gotIDs, sorted) || dim != 4 || !slices.Equal(data, want) {
			t.Errorf("%s vectors after migration: %v, dim %d, %v; want %v, 4, %v", rep, gotIDs, dim, data, sorted, want)
		}
	}
	if q, ok, err := st.QueryVector("m", "q?"); err != nil || !ok || !slices.Equal(q, vec("", 7)) {
		t.Errorf("query vector after migration: %v, %v, %v", q, ok, err)
	}
	var inputCap int
	st.DB().QueryRow(`SELECT DISTINCT input_cap FROM vectors`).Scan(&inputCap)
	if inputCap != 8192 {
		t.Errorf("input_cap after migration = %d, want 8192", inputCap)
	}
	if _, err := st.DB().Exec(`DELETE FROM chunks WHERE chunk_id = 'c1'`); err != nil {
		t.Fatal(err)
	}
	var left []string
	rows, err := st.DB().Query(`SELECT rep || '/' || chunk_id FROM vectors ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		left = append(left, s)
	}
	rows.Close()
	if want := "[embedding_text/c0 embedding_text/c2 summary/c0 summary/c2]"; fmt.Sprint(left) != want {
		t.Errorf("vectors after deleting chunk c1: %v, want %s", left, want)
	}
	var check string
	if err := st.DB().QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
}
