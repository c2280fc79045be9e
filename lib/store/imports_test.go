package store_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// corpus ingests one source of 7 messages (two chunks with smallOptions) and
// returns its chunk IDs in index order.
func corpus(t *testing.T) (*store.Store, []string) {
	t.Helper()
	st := openTemp(t)
	in, _ := ingest(t, st, "s.json", "sha", smallOptions, messages("s.json", 7, "m"))
	ids := make([]string, len(in.chunks))
	for i, c := range in.chunks {
		ids[i] = c.ID
	}
	return st, ids
}

// wantInputError checks that err is an *InputError at file:line.
func wantInputError(t *testing.T, err error, file string, line int) {
	t.Helper()
	var ie *store.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want *store.InputError", err)
	}
	if ie.File != file || ie.Line != line || !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: expected ", file, line)) {
		t.Errorf("err = %q, want it at %s:%d", err, file, line)
	}
}

func TestImportSummaries(t *testing.T) {
	st, ids := corpus(t)
	t.Run("empty file", func(t *testing.T) {
		n, err := st.ImportSummaries("empty.jsonl", strings.NewReader(""))
		if n != 0 || err != nil {
			t.Errorf("ImportSummaries(empty) = %d, %v", n, err)
		}
	})
	good := fmt.Sprintf("{\"chunk_id\": %q, \"summary\": \"first\"}\n\n{\"chunk_id\": %q, \"summary\": \"その二\", \"extra\": 1}\r\n{\"chunk_id\": %q, \"summary\": \"first, again\"}",
		ids[0], ids[1], ids[0])
	n, err := st.ImportSummaries("s.jsonl", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("imported %d, want 2 distinct chunk IDs", n)
	}
	want := map[string]string{ids[0]: "first, again", ids[1]: "その二"} // the last line for a key wins
	if got, _ := st.Summaries(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Summaries = %v, want %v", got, want)
	}
	okLine := fmt.Sprintf(`{"chunk_id": %q, "summary": "replaced?"}`, ids[1])
	for _, tc := range []struct {
		name, bad string
	}{
		{"malformed JSON", `{"chunk_id": "x", "summary": `},
		{"top-level array", `["chunk_id", "summary"]`},
		{"summary of wrong type", fmt.Sprintf(`{"chunk_id": %q, "summary": 5}`, ids[0])},
		{"chunk_id of wrong type", `{"chunk_id": 12, "summary": "s"}`},
		{"missing summary", fmt.Sprintf(`{"chunk_id": %q}`, ids[0])},
		{"null chunk_id", `{"chunk_id": null, "summary": "s"}`},
		{"unknown chunk", `{"chunk_id": "ffffffffffffffff", "summary": "s"}`},
		{"trailing data", fmt.Sprintf(`{"chunk_id": %q, "summary": "s"} {}`, ids[0])},
		{"invalid UTF-8", fmt.Sprintf("{\"chunk_id\": %q, \"summary\": \"\xff\"}", ids[0])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.ImportSummaries("bad.jsonl", strings.NewReader(okLine+"\n"+tc.bad+"\n"))
			wantInputError(t, err, "bad.jsonl", 2)
			if got, _ := st.Summaries(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("a failed import changed summaries to %v", got)
			}
		})
	}
	t.Run("put for unknown chunk", func(t *testing.T) {
		err := st.PutSummaries([]store.SummaryRow{{ChunkID: ids[1], Summary: "x", Origin: "p"}, {ChunkID: "nope", Summary: "x", Origin: "p"}})
		if err == nil {
			t.Error("no error")
		}
		if got, _ := st.Summaries(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("a failed put changed summaries to %v", got)
		}
	})
	t.Run("stats", func(t *testing.T) {
		stats, _ := st.Stats()
		lengths := []int{len("first, again"), len([]rune("その二"))}
		if stats.Summaries != 2 || stats.SummaryLength != store.DescribeLengths(lengths) {
			t.Errorf("summaries %d, lengths %+v", stats.Summaries, stats.SummaryLength)
		}
	})
}

func vectorLine(key string, v ...any) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return fmt.Sprintf(`{"key": %q, "vector": [%s]}`, key, strings.Join(parts, ", "))
}

func TestImportVectors(t *testing.T) {
	st, ids := corpus(t)
	t.Run("empty file", func(t *testing.T) {
		n, err := st.ImportVectors(store.RepRawText, "m", 0, "empty.jsonl", strings.NewReader("\n"))
		if n != 0 || err != nil {
			t.Errorf("ImportVectors(empty) = %d, %v", n, err)
		}
	})
	// ids[1] first so that ordering by chunk ID is visible when ids[1] < ids[0] or not.
	good := strings.Join([]string{
		vectorLine(ids[1], 0.5, -2, 1e-3),
		vectorLine(ids[0], 1, 2, 3),
		vectorLine(ids[1], 4, 5, 6), // the last line for a key wins
	}, "\n")
	n, err := st.ImportVectors(store.RepSummary, "m", 2000, "v.jsonl", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("imported %d, want 2", n)
	}
	byID := map[string][]float32{ids[0]: {1, 2, 3}, ids[1]: {4, 5, 6}}
	sorted := slices.Sorted(slices.Values(ids))
	var wantData []float32
	for _, id := range sorted {
		wantData = append(wantData, byID[id]...)
	}
	check := func(t *testing.T) {
		t.Helper()
		gotIDs, dim, data, err := st.ChunkVectors(store.RepSummary, "m")
		if err != nil || dim != 3 || !slices.Equal(gotIDs, sorted) || !slices.Equal(data, wantData) {
			t.Errorf("ChunkVectors = %v, %d, %v, %v; want %v, 3, %v", gotIDs, dim, data, err, sorted, wantData)
		}
	}
	check(t)
	if ids, dim, _, err := st.ChunkVectors(store.RepRawText, "m"); len(ids) != 0 || dim != 0 || err != nil {
		t.Errorf("empty set: %v, %d, %v", ids, dim, err)
	}
	var inputCap int
	st.DB().QueryRow(`SELECT DISTINCT input_cap FROM vectors`).Scan(&inputCap)
	if inputCap != 2000 {
		t.Errorf("input_cap = %d, want 2000", inputCap)
	}

	okLine := vectorLine(ids[0], 9, 9, 9)
	for _, tc := range []struct {
		name, rep, model, bad string
	}{
		{"dimension other than the model's stored one", store.RepRawText, "m", vectorLine(ids[1], 1, 2)},
		{"null element", store.RepSummary, "m", vectorLine(ids[1], 1, "null", 2)},
		{"string element", store.RepSummary, "m", vectorLine(ids[1], 1, `"2"`, 3)},
		{"beyond float32", store.RepSummary, "m", vectorLine(ids[1], 1, 1e39, 3)},
		{"NaN literal", store.RepSummary, "m", vectorLine(ids[1], 1, "NaN", 3)},
		{"empty vector", store.RepSummary, "m", vectorLine(ids[1])},
		{"missing vector", store.RepSummary, "m", fmt.Sprintf(`{"key": %q}`, ids[1])},
		{"key of wrong type", store.RepSummary, "m", `{"key": 1, "vector": [1, 2, 3]}`},
		{"unknown chunk", store.RepSummary, "m", vectorLine("0123456789abcdef", 1, 2, 3)},
		{"dimension change within a new model's file", store.RepSummary, "new", vectorLine(ids[1], 1, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := st.ImportVectors(tc.rep, tc.model, 0, "bad.jsonl", strings.NewReader(okLine+"\n"+tc.bad))
			wantInputError(t, err, "bad.jsonl", 2)
			check(t)
		})
	}
	t.Run("bad representation", func(t *testing.T) {
		if _, err := st.ImportVectors("raw", "m", 0, "v.jsonl", strings.NewReader(good)); err == nil {
			t.Error("no error")
		}
	})
	t.Run("put with wrong dimension", func(t *testing.T) {
		if err := st.PutChunkVectors(store.RepSummary, "m", 0, []store.VectorRow{{Key: ids[0], Vector: []float32{0, 0, 0, 0}}}); err == nil {
			t.Error("no error")
		}
		check(t)
	})
}

func TestImportQueryVectors(t *testing.T) {
	st, ids := corpus(t)
	if err := st.PutChunkVectors(store.RepEmbeddingText, "m", 0, []store.VectorRow{{Key: ids[0], Vector: []float32{1, 0}}}); err != nil {
		t.Fatal(err)
	}
	good := vectorLine("明日のバイトは何時から？", 0.25, 0.75) + "\n" + vectorLine(" spaced  question ", 1, -1)
	n, err := st.ImportQueryVectors("m", "q.jsonl", strings.NewReader(good))
	if err != nil || n != 2 {
		t.Fatalf("ImportQueryVectors = %d, %v", n, err)
	}
	for _, tc := range []struct {
		question string
		want     []float32
		found    bool
	}{
		{"明日のバイトは何時から？", []float32{0.25, 0.75}, true},
		{" spaced  question ", []float32{1, -1}, true},
		{"spaced question", nil, false}, // keys are verbatim, not normalised
	} {
		t.Run(tc.question, func(t *testing.T) {
			got, found, err := st.QueryVector("m", tc.question)
			if err != nil || found != tc.found || !slices.Equal(got, tc.want) {
				t.Errorf("QueryVector = %v, %v, %v; want %v, %v", got, found, err, tc.want, tc.found)
			}
		})
	}
	t.Run("dimension shared with the model's chunk vectors", func(t *testing.T) {
		_, err := st.ImportQueryVectors("m", "q3.jsonl", strings.NewReader(vectorLine("three", 1, 2, 3)))
		wantInputError(t, err, "q3.jsonl", 1)
		if _, found, _ := st.QueryVector("m", "three"); found {
			t.Error("failed import stored a vector")
		}
	})
	t.Run("empty key", func(t *testing.T) {
		_, err := st.ImportQueryVectors("m", "q.jsonl", strings.NewReader(vectorLine("", 1, 2)))
		wantInputError(t, err, "q.jsonl", 1)
	})
	stats, _ := st.Stats()
	want := "[{embedding_text m 2 1}] [{ m 2 2}]"
	if got := fmt.Sprint(stats.VectorSets, " ", stats.QueryVectorSets); got != want {
		t.Errorf("vector sets = %s, want %s", got, want)
	}
}

func ExampleStore_ImportSummaries() {
	st, err := store.Open(":memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	_, err = st.ImportSummaries("summaries.jsonl", strings.NewReader(`{"chunk_id": "0f01f826e1cf54c0", "summary": "…"}`))
	fmt.Println(err)
	// Output:
	// summaries.jsonl:1: expected a chunk_id of the corpus, got "0f01f826e1cf54c0"
}

// TestIncompleteSummaries: incomplete summaries are kept apart with their
// status, counted by Stats but not among the summaries, refused for an
// unknown chunk (nothing stored), and dropped when a whole summary of the
// chunk is stored.
func TestIncompleteSummaries(t *testing.T) {
	st, ids := corpus(t)
	cut := []store.IncompleteSummary{{ChunkID: ids[0], Summary: "cut", Origin: "openai:m", Status: "incomplete"}, {ChunkID: ids[1], Summary: "cut too", Origin: "openai:m", Status: "incomplete"}}
	if err := st.PutIncompleteSummaries(cut); err != nil {
		t.Fatal(err)
	}
	if err := st.PutIncompleteSummaries([]store.IncompleteSummary{{ChunkID: ids[0], Summary: "x", Origin: "o", Status: "incomplete"}, {ChunkID: "nope", Summary: "x", Origin: "o", Status: "incomplete"}}); err == nil {
		t.Error("an unknown chunk was accepted")
	}
	got, err := st.IncompleteSummaries()
	if err != nil || len(got) != 2 || got[ids[0]] != cut[0] || got[ids[1]] != cut[1] {
		t.Errorf("IncompleteSummaries = %v, %v; want %v", got, err, cut)
	}
	if s, _ := st.Summaries(); len(s) != 0 {
		t.Errorf("summaries %v, want none", s)
	}
	if err := st.PutSummaries([]store.SummaryRow{{ChunkID: ids[0], Summary: "whole", Origin: "openai:m"}}); err != nil {
		t.Fatal(err)
	}
	stats, err := st.Stats()
	if err != nil || stats.Summaries != 1 || stats.Incomplete != 1 {
		t.Errorf("stats %d summaries, %d incomplete (%v); want 1 and 1", stats.Summaries, stats.Incomplete, err)
	}
	if got, _ := st.IncompleteSummaries(); len(got) != 1 || got[ids[1]] != cut[1] {
		t.Errorf("after a whole summary of %s: %v", ids[0], got)
	}
}
