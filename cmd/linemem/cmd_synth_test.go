package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestSynthWritesDataFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "synthetic")
	stdout, stderr, code := goldCLI("synth", "--seed", "3", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var stats struct {
		Messages, Chunks, Questions int
	}
	if err := json.Unmarshal([]byte(stdout), &stats); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	if stats.Messages != 20000 || stats.Questions != 100 || stats.Chunks == 0 {
		t.Errorf("stats %+v", stats)
	}
	for _, name := range []string{"questions.jsonl", "evidence.jsonl", "qrels.txt", "summaries.jsonl", filepath.Join("sources", "chat_haruka.json")} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if _, _, code := goldCLI("synth", "--out", out, "--scale", "huge"); code != 1 {
		t.Errorf("unknown scale: exit %d, want 1", code)
	}
	if _, _, code := goldCLI("synth"); code != 2 {
		t.Errorf("no --out: exit %d, want 2", code)
	}
}
