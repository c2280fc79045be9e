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

// TestSearchFilterGrammar: search reads --since and --until as the MCP
// server does (memory.ParseFilters): RFC 3339 with an offset, converted to
// the local wall clock, and an unknown sender is a usage error offering the
// closest names, the user's name in either language included.
func TestSearchFilterGrammar(t *testing.T) {
	t.Setenv("TZ", "Asia/Tokyo")
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "internal", "mcpclients", "chats"))
	var at searchJSON
	if err := json.Unmarshal([]byte(run(t, "search", "--db", db, "--json", "--since", "2024-03-01T00:00:00+09:00", "--until", "2024-06-30T14:59:59Z", "誕生日")), &at); err != nil {
		t.Fatal(err)
	}
	if len(at.Results) == 0 {
		t.Fatal("no result with RFC 3339 bounds")
	}
	for _, r := range at.Results {
		if r.EndAt < "2024-03-01" || r.StartAt > "2024-06-30T23:59:59" {
			t.Errorf("result %s (%s – %s) outside March to June", r.ChunkID, r.StartAt, r.EndAt)
		}
	}
	if err := json.Unmarshal([]byte(run(t, "search", "--db", db, "--json", "--sender", "Me", "誕生日")), &at); err != nil || at.Filters.Sender != "自分" {
		t.Errorf("--sender Me on a Japanese export: sender %q, %v; want 自分", at.Filters.Sender, err)
	}
	code, _, stderr := ingestSideRun(t, "search", "--db", db, "--sender", "姉", "誕生日")
	if code == 0 || !strings.Contains(stderr, `no one called "姉"`) || !strings.Contains(stderr, "closest:") {
		t.Errorf("--sender 姉: exit %d, %s", code, stderr)
	}
}
