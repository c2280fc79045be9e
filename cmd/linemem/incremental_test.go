package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

// TestNewerExportKeepsUnchangedChunks is issue 11's incremental memory: a
// newer export of the same chat (the old messages plus a new day) replaces
// the source, keeps the summary and vectors of every unchanged chunk, and
// summarize and embed then send and compute only the new chunk.
func TestNewerExportKeepsUnchangedChunks(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", providerSideKey)
	requests, url := providerSideAPI(t)
	const name = "[LINE] 家族のトーク.txt"
	old, err := os.ReadFile(filepath.Join(historyDir, name))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	export := filepath.Join(dir, name)
	db := filepath.Join(dir, "me.db")
	os.WriteFile(export, old, 0o644)
	run(t, "ingest", export, "--db", db)
	run(t, "summarize", "--db", db, "--provider", "openai", "--allow-remote", "--base-url", url, "--quiet")
	run(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text", "--quiet")
	firstRequests := requests.Load()
	before := chunkState(t, db)
	if firstRequests != 5 || len(before.summaries) != 5 {
		t.Fatalf("first export: %d requests, %d summaries; want the fixture's 5 chunks", firstRequests, len(before.summaries))
	}

	newer := string(old) + "\n2024/05/20(月)\n09:00\t母\t来週の日曜は墓参りに行くよ\n09:02\t自分\tわかった、車出すね\n"
	os.WriteFile(export, []byte(newer), 0o644)
	if out := run(t, "ingest", export, "--db", db); !strings.Contains(out, "replaced") {
		t.Fatalf("newer export: %s, want the source replaced", out)
	}
	run(t, "summarize", "--db", db, "--provider", "openai", "--allow-remote", "--base-url", url, "--quiet")
	out := run(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text", "--quiet")
	after := chunkState(t, db)
	if got := requests.Load() - firstRequests; got != 1 {
		t.Errorf("summarize after the newer export sent %d requests, want 1 (the new chunk)", got)
	}
	if len(after.summaries) != 6 || len(after.vectors) != 6 || len(after.models) != 1 {
		t.Errorf("after: %d summaries, %d vectors, models %v; want 6, 6 and one model", len(after.summaries), len(after.vectors), after.models)
	}
	for id, s := range before.summaries {
		if after.summaries[id] != s || !slices.Equal(after.vectors[id], before.vectors[id]) {
			t.Errorf("chunk %s: summary or vector changed", id)
		}
	}
	if !strings.Contains(out, "1 done") {
		t.Errorf("embed after the newer export:\n%s\nwant 1 chunk embedded", out)
	}
}

type chunkSnapshot struct {
	summaries map[string]string
	vectors   map[string][]float32
	models    []string
}

func chunkState(t *testing.T, db string) chunkSnapshot {
	t.Helper()
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := chunkSnapshot{vectors: map[string][]float32{}}
	if s.summaries, err = st.Summaries(); err != nil {
		t.Fatal(err)
	}
	stats, err := st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range stats.VectorSets {
		s.models = append(s.models, set.Model)
		ids, dim, data, err := st.ChunkVectors(set.Rep, set.Model)
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			s.vectors[id] = data[i*dim : (i+1)*dim]
		}
	}
	return s
}
