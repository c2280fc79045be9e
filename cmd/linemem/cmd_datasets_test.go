package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A converted folder is what reproduce.Prepare reads, unchanged: the
// hand-written LoCoMo file of lib/datasets goes through convert and
// benchmark (the paper's tables, per user, native metrics). The analyses
// beyond the paper that `reproduce` adds need more questions than the file
// has (5-fold cross-validation).
func TestDatasetsConvertThenReproduceAndBenchmark(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "locomo")
	in := filepath.Join("..", "..", "lib", "datasets", "testdata", "locomo_small.json")
	stdout, stderr, code := goldCLI("datasets", "convert", "locomo", in, data, "--per-user")
	if code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "questions 3") {
		t.Errorf("convert printed %q", stdout)
	}
	out := filepath.Join(dir, "bench")
	if _, stderr, code := goldCLI("benchmark", "--quiet", "--data", data, "--work", filepath.Join(dir, "work"), "--out", out); code != 0 {
		t.Fatalf("benchmark: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"table3_single_retrievers.md", "native_metrics.md", "users_per_user.md", "users_claims.md", "users.json", "dataset.json",
		"units_recall.md", "units_selection.md", "units.json"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Error(err)
			continue
		}
		if strings.Contains(string(b), "pottery") || strings.Contains(string(b), "Ann") {
			t.Errorf("%s holds conversation text or a speaker name", f)
		}
	}
}

func TestDatasetsMissingInputNamesFetch(t *testing.T) {
	_, stderr, code := goldCLI("datasets", "convert", "realpersonachat", filepath.Join(t.TempDir(), "dialogues.jsonl.gz"), t.TempDir())
	if code != 1 || !strings.Contains(stderr, "linemem datasets fetch realpersonachat") {
		t.Errorf("exit %d, stderr %q: want 1 and the fetch command", code, stderr)
	}
	if _, stderr, code := goldCLI("datasets", "convert", "nope", filepath.Join(t.TempDir(), "a"), t.TempDir()); code != 2 || strings.Contains(stderr, "fetch nope") {
		t.Errorf("unknown data set: exit %d, stderr %q: want 2, a usage error naming the data sets", code, stderr)
	}
	for _, args := range [][]string{
		{"datasets", "convert", "realpersonachat", "in.jsonl.gz", "out", "--users", "0"},
		{"datasets", "convert", "realpersonachat", "in.jsonl.gz", "out", "--questions", "0"},
		{"datasets", "convert", "locomo", "locomo10.json", "out", "--users", "3"},
	} {
		if _, stderr, code := goldCLI(args...); code != 2 || !strings.Contains(stderr, "--users and --questions") {
			t.Errorf("%v: exit %d, stderr %q: want 2, a usage error (not the default silently)", args, code, stderr)
		}
	}
	_, stderr, code = goldCLI("datasets", "convert", "longmemeval", filepath.Join(t.TempDir(), "longmemeval_s_cleaned.json"), t.TempDir())
	if code != 1 || strings.Contains(stderr, "datasets fetch") || !strings.Contains(stderr, "huggingface.co/datasets/xiaowu0162/longmemeval-cleaned") {
		t.Errorf("longmemeval missing: exit %d, stderr %q: want 1 and where to download it (fetch does not)", code, stderr)
	}
	_, stderr, code = goldCLI("datasets", "fetch", "longmemeval", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "huggingface.co/datasets/xiaowu0162/longmemeval-cleaned") {
		t.Errorf("fetch longmemeval: exit %d, stderr %q: want 2 and where to download it", code, stderr)
	}
	_, stderr, code = goldCLI("benchmark", "--data", filepath.Join(t.TempDir(), "none"), "--out", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "linemem datasets convert") {
		t.Errorf("benchmark without data: exit %d, stderr %q", code, stderr)
	}
}
