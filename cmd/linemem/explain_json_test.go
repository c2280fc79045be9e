package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchExplainJSONIsATree: `search --explain --json` gives each
// result's score breakdown as a tree {value, message, children} whose
// root's value is the result's score, for BM25 and for a hybrid; the text
// output keeps the indented lines.
func TestSearchExplainJSONIsATree(t *testing.T) {
	db := filepath.Join(t.TempDir(), "explain.db")
	run(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	run(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text")
	const question = "ポスターの締切はいつ？"
	for _, retriever := range []string{"raw_text_bm25", "hybrid:raw_text_bm25+raw_text_vector@0.40"} {
		t.Run(retriever, func(t *testing.T) {
			args := []string{"search", "--db", db, "--retriever", retriever, "--k", "3", "--explain"}
			var doc struct {
				Results []struct {
					Score   float64 `json:"score"`
					Explain *struct {
						Value    float64           `json:"value"`
						Message  string            `json:"message"`
						Children []json.RawMessage `json:"children"`
					} `json:"explain"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(run(t, append(args, "--json", question)...)), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Results) == 0 {
				t.Fatal("no results")
			}
			for i, r := range doc.Results {
				e := r.Explain
				if e == nil || e.Message == "" || len(e.Children) == 0 {
					t.Fatalf("result %d: explain %+v, want a tree with children", i+1, e)
				}
				if math.Abs(e.Value-r.Score) > 1e-9*math.Max(1, math.Abs(r.Score)) {
					t.Errorf("result %d: root value %v, want the score %v", i+1, e.Value, r.Score)
				}
			}
			if text := run(t, append(args, question)...); !strings.Contains(text, "\n    | ") {
				t.Errorf("text --explain lacks the indented breakdown:\n%s", text)
			}
		})
	}
}
