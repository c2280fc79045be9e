package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// convertedLoCoMo converts the hand-written LoCoMo file with --per-user
// into a fresh folder and returns it.
func convertedLoCoMo(t *testing.T) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "locomo")
	in := filepath.Join("..", "..", "lib", "datasets", "testdata", "locomo_small.json")
	if _, stderr, code := goldCLI("datasets", "convert", "locomo", in, data, "--per-user"); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	return data
}

// TestBenchmarkChecksInputsFirst: every bad input is refused before a file
// is written: nothing appears in --out, --work or beside --data, and the
// data folder is unchanged.
func TestBenchmarkChecksInputsFirst(t *testing.T) {
	data := convertedLoCoMo(t)
	before := tree(t, data)
	file := filepath.Join(t.TempDir(), "data.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	noInfo := convertedLoCoMo(t)
	os.Remove(filepath.Join(noInfo, "dataset.json"))
	noUserQrels := convertedLoCoMo(t)
	os.Remove(filepath.Join(noUserQrels, "users", "conv-x", "qrels.txt"))
	for _, c := range []struct {
		name, data, out, want string
	}{
		{"out is data", data, data, "lies in --data"},
		{"out inside data", data, filepath.Join(data, "bench"), "lies in --data"},
		{"data inside out", data, filepath.Dir(data), "lies in --out"},
		{"data is a file", file, filepath.Join(t.TempDir(), "bench"), "not a folder"},
		{"no dataset.json", noInfo, filepath.Join(t.TempDir(), "bench"), "dataset.json"},
		{"a user without qrels", noUserQrels, filepath.Join(t.TempDir(), "bench"), "qrels.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := filepath.Dir(c.data)
			beside := entries(t, parent)
			_, stderr, code := goldCLI("benchmark", "--quiet", "--data", c.data, "--out", c.out)
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want a refusal naming %q", code, stderr, c.want)
			}
			if got := entries(t, parent); !slices.Equal(got, beside) {
				t.Errorf("beside --data: %v, was %v", got, beside)
			}
			if _, err := os.Stat(c.out); c.out != c.data && c.out != filepath.Dir(c.data) && err == nil {
				t.Errorf("--out %s was created", c.out)
			}
		})
	}
	if !sameTree(tree(t, data), before) {
		t.Error("the data folder changed")
	}
}

// TestBenchmarkSkipsUsersWithoutQuestions: a user whose questions.jsonl is
// empty (all its questions are no-answer ones) is skipped and counted, and
// the data folder is left exactly as convert wrote it.
func TestBenchmarkSkipsUsersWithoutQuestions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the paper protocol")
	}
	data := convertedLoCoMo(t)
	user := filepath.Join(data, "users", "conv-y")
	if err := os.MkdirAll(filepath.Join(user, "sources"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sources/conv-x.json", "qrels.txt", "summaries.jsonl", "evidence.jsonl", "noanswer.jsonl", "dataset.json"} {
		b, _ := os.ReadFile(filepath.Join(data, "users", "conv-x", f))
		os.WriteFile(filepath.Join(user, f), b, 0o644)
	}
	os.WriteFile(filepath.Join(user, "questions.jsonl"), nil, 0o644)
	before := tree(t, data)
	out := filepath.Join(t.TempDir(), "bench")
	stdout, stderr, code := goldCLI("benchmark", "--quiet", "--data", data, "--work", filepath.Join(t.TempDir(), "work"), "--out", out)
	if code != 0 {
		t.Fatalf("benchmark: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "skipped 1 users without answerable questions: conv-y") {
		t.Errorf("stdout %q does not count the skipped user", stdout)
	}
	if !sameTree(tree(t, data), before) {
		t.Error("benchmark wrote into the data folder")
	}
	if got := entries(t, filepath.Dir(out)); !slices.Equal(got, []string{"bench"}) {
		t.Errorf("beside --out: %v, want [bench]", got)
	}
}
