package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldCLI runs linemem with args and returns stdout, stderr and the exit code.
func goldCLI(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := runMain(&environment{stdout: &out, stderr: &errOut}, args)
	return out.String(), errOut.String(), code
}

// TestGoldResolveReproducesCommittedQrels: ingesting data/synthetic/sources
// and resolving its evidence through the store gives its qrels.txt.
func TestGoldResolveReproducesCommittedQrels(t *testing.T) {
	data := filepath.Join("..", "..", "data", "synthetic")
	db := filepath.Join(t.TempDir(), "synthetic.db")
	if _, stderr, code := goldCLI("ingest", "--quiet", "--db", db, filepath.Join(data, "sources")); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "qrels.txt")
	_, report, code := goldCLI("gold", "resolve", "--db", db, "--evidence", filepath.Join(data, "evidence.jsonl"), "--out", out)
	if code != 0 {
		t.Fatalf("gold resolve: exit %d: %s", code, report)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(data, "qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("resolved qrels differ from data/synthetic/qrels.txt")
	}
	if !strings.Contains(report, "unmatched:") || !strings.Contains(report, "by excerpt") {
		t.Errorf("report does not account for unmatched and excerpt-matched items:\n%s", report)
	}
	if _, _, code := goldCLI("gold", "resolve", "--db", db, "--evidence", filepath.Join(data, "evidence.jsonl"), "--out", out, "--strict"); code != 1 {
		t.Errorf("--strict with unmatched evidence: exit %d, want 1", code)
	}
}

func TestGoldResolveUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no evidence flag", []string{"gold", "resolve"}, 2},
		{"missing database", []string{"gold", "resolve", "--db", filepath.Join(t.TempDir(), "none.db"), "--evidence", "x.jsonl"}, 1},
		{"bad evidence file", []string{"gold", "resolve", "--evidence", filepath.Join(t.TempDir(), "none.jsonl")}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, stderr, code := goldCLI(tt.args...); code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, stderr)
			}
		})
	}
}
