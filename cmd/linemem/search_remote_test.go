package main

import (
	"strings"
	"testing"
)

// TestSearchEmbedsTheQuestionRemotelyOnlyWhenAllowed: chunk vectors of an
// OpenAI-format model can be searched with a free question. A server on a
// loopback address is local: the question goes to it without
// --allow-remote. Any other address needs --allow-remote, and without it
// nothing is sent. The vector is kept in query_vectors, so asking again
// sends nothing.
func TestSearchEmbedsTheQuestionRemotelyOnlyWhenAllowed(t *testing.T) {
	db, _ := providerSideDB(t)
	requests, url := providerSideAPI(t)
	if code, out, stderr := providerSideRun(t, "embed", "--db", db, "--provider", "openai", "--rep", "raw_text", "--base-url", url, "--allow-remote", "--dimensions", "8", "--batch", "1000"); code != 0 {
		t.Fatalf("embed: exit %d\n%s%s", code, out, stderr)
	}
	sent := requests.Load()
	search := func(question, url string) []string {
		return []string{"search", question, "--db", db, "--retriever", "raw_text_vector", "--base-url", url}
	}
	code, _, stderr := providerSideRun(t, search("数学のテスト", "https://embeddings.example.invalid/v1")...)
	if code == 0 || requests.Load() != sent || !strings.Contains(stderr, "--allow-remote") || !strings.Contains(stderr, "text-embedding-3-small") {
		t.Fatalf("a remote server without --allow-remote: exit %d, %d requests sent; want a refusal naming the flag and the model, nothing sent\n%s", code, requests.Load()-sent, stderr)
	}
	code, out, stderr := providerSideRun(t, search("数学のテスト", url)...)
	if code != 0 || requests.Load() != sent+1 || !strings.Contains(stderr, "local server") || !strings.Contains(out, "raw_text_vector") {
		t.Fatalf("a loopback server without --allow-remote: exit %d, %d requests, want 1 and a note naming the local server\n%s%s", code, requests.Load()-sent, out, stderr)
	}
	code, _, stderr = providerSideRun(t, search("数学のテスト", url)...)
	if code != 0 || requests.Load() != sent+1 || strings.Contains(stderr, "note:") {
		t.Errorf("asked again: exit %d, %d requests in all, want the stored vector and no request\n%s", code, requests.Load()-sent, stderr)
	}
	code, _, stderr = providerSideRun(t, append(search("英語の宿題", url), "--allow-remote")...)
	if code != 0 || requests.Load() != sent+2 || !strings.Contains(stderr, "embedded with text-embedding-3-small") {
		t.Errorf("a new question with --allow-remote: exit %d, %d requests in all, want 2\n%s", code, requests.Load()-sent, stderr)
	}
}
