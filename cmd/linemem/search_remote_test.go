package main

import (
	"strings"
	"testing"
)

// TestSearchEmbedsTheQuestionRemotelyOnlyWhenAllowed: chunk vectors of a
// remote model (an httptest server speaking the OpenAI embeddings format)
// can be searched with a free question once --allow-remote lets search send
// it; the vector is kept in query_vectors, so asking again sends nothing.
func TestSearchEmbedsTheQuestionRemotelyOnlyWhenAllowed(t *testing.T) {
	db, _ := providerSideDB(t)
	requests, url := providerSideAPI(t)
	if code, out, stderr := providerSideRun(t, "embed", "--db", db, "--provider", "openai", "--rep", "raw_text", "--base-url", url, "--allow-remote", "--dimensions", "8", "--batch", "1000"); code != 0 {
		t.Fatalf("embed: exit %d\n%s%s", code, out, stderr)
	}
	sent := requests.Load()
	search := []string{"search", "数学のテスト", "--db", db, "--retriever", "raw_text_vector", "--base-url", url}
	code, _, stderr := providerSideRun(t, search...)
	if code == 0 || requests.Load() != sent || !strings.Contains(stderr, "--allow-remote") || !strings.Contains(stderr, "text-embedding-3-small") {
		t.Fatalf("without --allow-remote: exit %d, %d requests sent; want a refusal naming the flag and the model, nothing sent\n%s", code, requests.Load()-sent, stderr)
	}
	code, out, stderr := providerSideRun(t, append(search, "--allow-remote")...)
	if code != 0 || requests.Load() != sent+1 || !strings.Contains(stderr, "embedded with text-embedding-3-small") || !strings.Contains(out, "raw_text_vector") {
		t.Fatalf("with --allow-remote: exit %d, %d requests, want 1\n%s%s", code, requests.Load()-sent, out, stderr)
	}
	code, _, stderr = providerSideRun(t, append(search, "--allow-remote")...)
	if code != 0 || requests.Load() != sent+1 || strings.Contains(stderr, "note:") {
		t.Errorf("asked again: exit %d, %d requests in all, want the stored vector and no request\n%s", code, requests.Load()-sent, stderr)
	}
}
