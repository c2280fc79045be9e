package store_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// TestVectorBlocks imports and replaces the vectors of a set larger than two
// blocks and removes chunks, checking after each step that every vector
// reads back exactly, how many blocks are stored, and that no block is kept
// that no chunk row names.
func TestVectorBlocks(t *testing.T) {
	const b = store.BlockVectors
	st := openTemp(t)
	msgs := messages("s.json", 3*(2*b+5)+1, "m")
	in, _ := ingest(t, st, "s.json", "sha-1", smallOptions, msgs)
	n := len(in.chunks)
	if n < 2*b+5 {
		t.Fatalf("%d chunks, want at least %d", n, 2*b+5)
	}
	ids := make([]string, n)
	for i, c := range in.chunks {
		ids[i] = c.ID
	}
	// vec(i, gen) is chunk i's vector in import number gen.
	vec := func(i, gen int) []any { return []any{float32(i) / 3, -float32(gen), float32(i*gen) + 0.5} }
	want := map[string][]float32{}
	importLines := func(t *testing.T, lines []string) {
		t.Helper()
		if _, err := st.ImportVectors(store.RepSummary, "m", 0, "v.jsonl", strings.NewReader(strings.Join(lines, "\n"))); err != nil {
			t.Fatal(err)
		}
	}
	line := func(i, gen int) string {
		v := vec(i, gen)
		want[ids[i]] = []float32{v[0].(float32), v[1].(float32), v[2].(float32)}
		return vectorLine(ids[i], v...)
	}
	check := func(t *testing.T, wantBlocks int) {
		t.Helper()
		gotIDs, dim, data, err := st.ChunkVectors(store.RepSummary, "m")
		if err != nil {
			t.Fatal(err)
		}
		wantIDs := slices.Sorted(func(yield func(string) bool) {
			for id := range want {
				if !yield(id) {
					return
				}
			}
		})
		var wantData []float32
		for _, id := range wantIDs {
			wantData = append(wantData, want[id]...)
		}
		if !slices.Equal(gotIDs, wantIDs) || dim != 3 || !slices.Equal(data, wantData) {
			t.Errorf("ChunkVectors: %d IDs, dim %d; want %d IDs, dim 3, the vectors written last", len(gotIDs), dim, len(wantIDs))
		}
		var blocks, named int
		st.DB().QueryRow(`SELECT (SELECT count(*) FROM vector_blocks), (SELECT count(DISTINCT block) FROM vectors)`).Scan(&blocks, &named)
		if blocks != wantBlocks || named != blocks {
			t.Errorf("%d blocks stored, %d named by chunk rows; want %d of each", blocks, named, wantBlocks)
		}
	}

	t.Run("import in blocks, the last line for a key winning", func(t *testing.T) {
		var lines []string
		for i := range n {
			lines = append(lines, line(i, 1))
		}
		lines = append(lines, line(0, 2))
		importLines(t, lines)
		check(t, (n+1+b-1)/b) // n+1 lines, b to a block
	})
	t.Run("a partial import keeps the blocks still in use", func(t *testing.T) {
		var lines []string
		for i := b; i < b+10; i++ { // the second block only
			lines = append(lines, line(i, 3))
		}
		importLines(t, lines)
		check(t, (n+1+b-1)/b+1)
	})
	t.Run("put from a job replaces like an import", func(t *testing.T) {
		var rows []store.VectorRow
		for i := range b {
			line(i, 4)
			rows = append(rows, store.VectorRow{Key: ids[i], Vector: want[ids[i]]})
		}
		if err := st.PutChunkVectors(store.RepSummary, "m", 0, rows); err != nil {
			t.Fatal(err)
		}
		check(t, (n+1+b-1)/b+1) // the first block is unused and gone, the new one takes its place
	})
	t.Run("a whole new set leaves nothing behind", func(t *testing.T) {
		var lines []string
		for i := n - 1; i >= 0; i-- {
			lines = append(lines, line(i, 5))
		}
		importLines(t, lines)
		check(t, (n+b-1)/b)
	})
	t.Run("removed chunks take their vectors and unused blocks", func(t *testing.T) {
		// Keeping the first b+2 chunks' messages keeps those chunks (except
		// the last, whose window changes) and removes the rest.
		kept := msgs[:3*(b+2)+1]
		after, _ := ingest(t, st, "s.json", "sha-2", smallOptions, kept)
		stored := map[string]bool{}
		for _, c := range after.chunks {
			stored[c.ID] = true
		}
		for id := range want {
			if !stored[id] {
				delete(want, id)
			}
		}
		if len(want) < b+1 || len(want) >= n {
			t.Fatalf("%d of %d chunks kept, want more than one block and fewer than all", len(want), n)
		}
		// Import 5 wrote the chunks from the last: the kept first chunks lie
		// in the last blocks, ⌈n/b⌉ - ⌊(n-len(want))/b⌋ of which are in use.
		check(t, (n+b-1)/b-(n-len(want))/b)
	})
	t.Run("models are listed from the blocks", func(t *testing.T) {
		if models, err := st.ChunkVectorModels(); err != nil || fmt.Sprint(models) != "[m]" {
			t.Errorf("ChunkVectorModels = %v, %v; want [m]", models, err)
		}
	})
	t.Run("a damaged block is an error, not a wrong vector", func(t *testing.T) {
		for _, damage := range []struct{ do, undo string }{
			{`UPDATE vectors SET slot = slot + 1000 WHERE chunk_id = (SELECT min(chunk_id) FROM vectors)`,
				`UPDATE vectors SET slot = slot - 1000 WHERE chunk_id = (SELECT min(chunk_id) FROM vectors)`},
			{`DELETE FROM vector_blocks WHERE block = (SELECT max(block) FROM vector_blocks)`, ""},
		} {
			if _, err := st.DB().Exec(damage.do); err != nil {
				t.Fatal(err)
			}
			if _, _, _, err := st.ChunkVectors(store.RepSummary, "m"); err == nil {
				t.Errorf("%s: no error", damage.do)
			}
			if damage.undo != "" {
				if _, err := st.DB().Exec(damage.undo); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// TestChunkVectorsWhileReplacing reads a set while another goroutine
// replaces it whole, write after write: every read must see one write's
// vectors, all of them, as a reader of one snapshot would. The chunk rows of
// one write and the blocks of a later one (which deleted the earlier blocks)
// are neither an error nor a mix.
func TestChunkVectorsWhileReplacing(t *testing.T) {
	const writes = 40
	st := openTemp(t)
	in, _ := ingest(t, st, "s.json", "sha-1", smallOptions, messages("s.json", 3*(store.BlockVectors+5)+1, "m"))
	// Write gen gives chunk i the vector (gen, i).
	vec := func(gen, i int) []float32 { return []float32{float32(gen), float32(i)} }
	for _, tc := range []struct {
		name  string
		write func(gen int) error
	}{
		{"vectors import", func(gen int) error {
			var lines []string
			for i, c := range in.chunks {
				v := vec(gen, i)
				lines = append(lines, vectorLine(c.ID, v[0], v[1]))
			}
			_, err := st.ImportVectors(store.RepSummary, "m", 0, "v.jsonl", strings.NewReader(strings.Join(lines, "\n")))
			return err
		}},
		{"put from a job", func(gen int) error {
			var rows []store.VectorRow
			for i, c := range in.chunks {
				rows = append(rows, store.VectorRow{Key: c.ID, Vector: vec(gen, i)})
			}
			return st.PutChunkVectors(store.RepSummary, "m", 0, rows)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.write(0); err != nil {
				t.Fatal(err)
			}
			done := make(chan error)
			go func() {
				for gen := 1; gen <= writes; gen++ {
					if err := tc.write(gen); err != nil {
						done <- err
						return
					}
				}
				done <- nil
			}()
			for reads := 0; ; reads++ {
				select {
				case err := <-done:
					if err != nil {
						t.Fatal(err)
					}
					t.Logf("%d reads during %d writes", reads, writes)
					return
				default:
				}
				ids, dim, data, err := st.ChunkVectors(store.RepSummary, "m")
				if err != nil {
					<-done
					t.Fatalf("read %d: %v", reads, err)
				}
				if len(ids) != len(in.chunks) || dim != 2 {
					<-done
					t.Fatalf("read %d: %d IDs of dimension %d, want %d of dimension 2", reads, len(ids), dim, len(in.chunks))
				}
				for i := range ids {
					if gen := data[2*i]; gen != data[0] {
						<-done
						t.Fatalf("read %d: the vector of %s from write %v, of %s from write %v", reads, ids[i], gen, ids[0], data[0])
					}
				}
			}
		})
	}
}
