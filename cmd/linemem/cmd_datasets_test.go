package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// On a machine without network and without the data sets, the first step of
// `make all` (scripts/fetch-datasets.sh) stops within seconds, non-zero,
// naming the command that fetches them and the folder it expects. The
// network is made unreachable with a proxy on a closed loopback port.
func TestFetchDatasetsOfflineStopsAtOnce(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	missing := filepath.Join(t.TempDir(), "datasets")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join("..", "..", "scripts", "fetch-datasets.sh"))
	unreachable := "http://127.0.0.1:9"
	cmd.Env = append(os.Environ(), "DATASETS="+missing, "HTTPS_PROXY="+unreachable, "https_proxy="+unreachable,
		"HTTP_PROXY="+unreachable, "http_proxy="+unreachable, "NO_PROXY=", "no_proxy=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("still running after 90 s; stderr:\n%s", stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("exit: %v, want a non-zero exit; stderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"linemem datasets fetch locomo DIR", "linemem datasets fetch realpersonachat DIR", missing, "locomo/locomo10.json"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	t.Logf("stopped after %s", time.Since(start).Round(time.Millisecond))
}

// `make all` fetches the data sets before any other step.
func TestMakeAllFetchesDatasetsFirst(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "ALL_STEPS = "); ok {
			if first := strings.Fields(rest)[0]; first != "datasets" {
				t.Errorf("the first step of make all is %q, want datasets", first)
			}
			return
		}
	}
	t.Error("Makefile has no ALL_STEPS line")
}
