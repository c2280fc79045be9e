package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/reproduce"
)

// TestSearchEmbedsAFreeQuestionWithTheStoredLocalModel prepares the synthetic
// corpus (local LSA vectors) and searches a question that has no stored query
// vector with a dense and a hybrid retriever.
func TestSearchEmbedsAFreeQuestionWithTheStoredLocalModel(t *testing.T) {
	db := filepath.Join(t.TempDir(), "syn.db")
	opts := reproduce.PaperOptions(filepath.Join("..", "..", "data", "synthetic"), db)
	opts.Protocol.B = 10
	s, err := reproduce.Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	const question = "金沢旅行の宿の精算はいくらだった？"
	for _, name := range []string{"embedding_text_vector", "hybrid:embedding_text_bm25+embedding_text_vector@0.40"} {
		t.Run(name, func(t *testing.T) {
			out := run(t, "search", "--db", db, "--retriever", name, "--k", "5", "--json", question)
			var got searchJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Retriever != name || len(got.Results) != 5 {
				t.Fatalf("retriever %s with %d results, want %s with 5", got.Retriever, len(got.Results), name)
			}
			for i, r := range got.Results {
				if r.Rank != i+1 || r.ChunkID == "" || r.RawText == "" {
					t.Errorf("result %d: %+v", i, r)
				}
				if i > 0 && r.Score > got.Results[i-1].Score {
					t.Errorf("result %d scores %v above result %d (%v)", i+1, r.Score, i, got.Results[i-1].Score)
				}
			}
		})
	}
}

func TestSearchDefaultsToTheBestSingleRetrieverTheDatabaseSupports(t *testing.T) {
	db := filepath.Join(t.TempDir(), "conf.db")
	run(t, "ingest", "--db", db, filepath.Join("..", "..", "testdata", "conformance", "sources"))
	out := run(t, "search", "--db", db, "--json", "数学のテスト")
	if !strings.Contains(out, `"retriever": "raw_text_bm25"`) {
		t.Errorf("without summaries: %s, want raw_text_bm25", strings.SplitN(out, "\n", 3)[1])
	}
	run(t, "summaries", "import", "--db", db, filepath.Join("..", "..", "testdata", "conformance", "summaries.jsonl"))
	out = run(t, "search", "--db", db, "--json", "数学のテスト")
	if !strings.Contains(out, `"retriever": "embedding_text_bm25"`) {
		t.Errorf("with summaries: %s, want embedding_text_bm25", strings.SplitN(out, "\n", 3)[1])
	}
}
