package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/internal/conformance"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// evalOutputArgs are the eval and sweep lines whose output the golden files
// in testdata hold, on the conformance database db: the paper's protocol, text
// and JSON.
func evalOutputArgs(db string) map[string][]string {
	set := []string{"--db", db, "--questions", conformance.Path("questions.jsonl"), "--qrels", conformance.Path("qrels.txt")}
	eval := append([]string{"eval", "--retriever", "raw_text_bm25,hybrid:embedding_text_bm25+embedding_text_vector@0.45", "--bootstrap", "200"}, set...)
	sweep := append([]string{"sweep"}, set...)
	return map[string][]string{
		"eval.txt":   eval,
		"eval.json":  append(slices.Clone(eval), "--json"),
		"sweep.txt":  sweep,
		"sweep.json": append(slices.Clone(sweep), "--json"),
	}
}

// TestEvalAndSweepOutputGolden pins the text and JSON of eval and sweep under
// the paper's protocol byte for byte; -update rewrites testdata/.
func TestEvalAndSweepOutputGolden(t *testing.T) {
	db := conformanceDB(t)
	for name, args := range evalOutputArgs(db) {
		t.Run(name, func(t *testing.T) {
			got := run(t, args...)
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("linemem %s:\n%s\nwant (%s):\n%s", strings.Join(args, " "), got, path, want)
			}
		})
	}
}
