package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDecomposeThenEvalMultiLLM(t *testing.T) {
	db, _ := providerSideDB(t)
	requests, url := providerSideAPI(t)
	questions := filepath.Join("..", "..", "data", "synthetic", "questions.jsonl")
	qrels := filepath.Join("..", "..", "data", "synthetic", "qrels.txt")

	code, _, stderr := providerSideRun(t, "decompose", "--db", db, "--questions", questions, "--base-url", remoteURL)
	if code != 1 || !strings.Contains(stderr, "Nothing was sent") || !strings.Contains(stderr, "--allow-remote") {
		t.Fatalf("remote service without --allow-remote: exit %d, stderr %q; want exit 1, none sent", code, stderr)
	}
	// the test server is on loopback, this machine: no --allow-remote needed
	code, out, stderr := providerSideRun(t, "decompose", "--questions", questions, "--base-url", url, "--db", db)
	if code != 0 || !strings.Contains(out, "decomposed 100 questions") || requests.Load() != 100 {
		t.Fatalf("decompose: exit %d, %d requests, %s%s", code, requests.Load(), out, stderr)
	}
	code, out, _ = providerSideRun(t, "decompose", "--db", db, "--questions", questions, "--base-url", url, "--allow-remote")
	if code != 0 || !strings.Contains(out, "would send 0 of 100") || requests.Load() != 100 {
		t.Errorf("rerun: exit %d, %d requests, %q; want nothing sent", code, requests.Load(), out)
	}
	code, out, stderr = providerSideRun(t, "eval", "--db", db, "--questions", questions, "--qrels", qrels, "--retriever", "multi:llm:raw_text_bm25", "--json")
	if code != 0 || !strings.Contains(out, `"multi:llm:raw_text_bm25"`) || requests.Load() != 100 {
		t.Errorf("eval multi:llm: exit %d, %d requests, %s%s; want the stored sub-queries, nothing sent", code, requests.Load(), out, stderr)
	}
}
