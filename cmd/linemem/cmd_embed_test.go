package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/store"
)

func TestEmbedLSAOffline(t *testing.T) {
	db, chunks := providerSideDB(t)
	questions := filepath.Join("..", "..", "data", "synthetic", "questions.jsonl")
	args := []string{"embed", "--db", db, "--provider", "lsa", "--rep", "raw_text", "--dimensions", "16", "--queries", questions}
	code, out, stderr := providerSideRun(t, append(args, "--dry-run")...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("raw_text vectors with lsa lsa-bigram-d16-v20000-s1: %d total, 0 already stored", chunks)) {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = providerSideRun(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "fitting lsa-bigram-d16-v20000-s1 on the raw_text of") {
		t.Errorf("no fit announced:\n%s", stderr)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ids, dim, _, err := st.ChunkVectors("raw_text", "lsa-bigram-d16-v20000-s1")
	_, found, _ := st.QueryVector("lsa-bigram-d16-v20000-s1", "") // empty question: never stored
	st.Close()
	if err != nil || len(ids) != chunks || dim != 16 || found {
		t.Fatalf("stored %d vectors of dim %d (err %v)", len(ids), dim, err)
	}
	// The fitted model is stored: a second representation reuses it.
	code, out, stderr = providerSideRun(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text", "--dimensions", "16")
	if code != 0 || strings.Contains(stderr, "fitting") || !strings.Contains(out, fmt.Sprintf("%d already stored", chunks)) {
		t.Errorf("rerun: exit %d\n%s%s", code, out, stderr)
	}
	code, _, stderr = providerSideRun(t, "embed", "--db", db, "--provider", "lsa", "--rep", "raw_text", "--model", "lsa-other")
	if code != 2 || !strings.Contains(stderr, "does not match") {
		t.Errorf("mismatched --model: exit %d %s", code, stderr)
	}
}

// TestEmbedRemote: a service off this machine is refused without
// --allow-remote (nothing is sent; the URL is never reached), priced on
// --dry-run; a service on a loopback address (an httptest server speaking the
// OpenAI embeddings format) is local and needs no --allow-remote.
func TestEmbedRemote(t *testing.T) {
	db, chunks := providerSideDB(t)
	requests, url := providerSideAPI(t)
	const remoteURL = "http://embeddings.invalid/v1"
	remote := []string{"embed", "--db", db, "--provider", "openai", "--rep", "raw_text", "--base-url", remoteURL}
	code, _, stderr := providerSideRun(t, remote...)
	if code == 0 || !strings.Contains(stderr, fmt.Sprintf("the raw_text of %d chunks", chunks)) ||
		!strings.Contains(stderr, remoteURL+"/embeddings") || !strings.Contains(stderr, "--allow-remote") {
		t.Fatalf("refusal: exit %d\n%s", code, stderr)
	}
	code, out, _ := providerSideRun(t, append(remote, "--dry-run")...)
	if code != 0 || !strings.Contains(out, "at $0.02 / $0 per million") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	base := []string{"embed", "--db", db, "--provider", "openai", "--rep", "raw_text", "--base-url", url}
	code, out, _ = providerSideRun(t, append(base, "--dry-run")...)
	if code != 0 || requests.Load() != 0 || !strings.Contains(out, "none (local provider)") {
		t.Fatalf("loopback dry run: exit %d, %d requests\n%s", code, requests.Load(), out)
	}
	code, out, stderr = providerSideRun(t, append(base, "--dimensions", "8", "--batch", "100")...)
	wantRequests := (chunks + 99) / 100
	if code != 0 || int(requests.Load()) != wantRequests {
		t.Fatalf("loopback without --allow-remote: exit %d, %d requests, want %d\n%s%s", code, requests.Load(), wantRequests, out, stderr)
	}
	// Another dimension for the same model is refused before sending.
	code, _, stderr = providerSideRun(t, append(base, "--dimensions", "4")...)
	if code == 0 || int(requests.Load()) != wantRequests || !strings.Contains(stderr, "dimension 8, the embedder gives 4") {
		t.Errorf("dimension change: exit %d, %d requests\n%s", code, requests.Load(), stderr)
	}
}
