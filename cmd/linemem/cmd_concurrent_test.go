package main

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentRunsNeverPayTwice runs two summarize (then two embed)
// processes on one database at once against a server that counts requests:
// every chunk is sent once in all.
func TestConcurrentRunsNeverPayTwice(t *testing.T) {
	providerSideDB(t) // sets the provider environment
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	const chunks = 7 // 4 sessions of hanako.txt, 3 of club.txt
	for _, c := range []struct {
		name string
		args []string
		want int // requests in all
	}{
		{"summarize", []string{"summarize", "--provider", "openai"}, chunks},
		{"embed", []string{"embed", "--provider", "openai", "--rep", "raw_text", "--dimensions", "8", "--batch", "1"}, chunks},
	} {
		t.Run(c.name, func(t *testing.T) {
			requests, url := providerSideAPI(t)
			args := append(append([]string(nil), c.args...), "--db", db, "--base-url", url, "--allow-remote", "--interval", "0")
			var wg sync.WaitGroup
			outs := make([]string, 2)
			for i := range outs {
				wg.Go(func() {
					code, out, stderr := providerSideRun(t, args...)
					outs[i] = fmt.Sprintf("exit %d\n%s%s", code, out, stderr)
				})
			}
			wg.Wait()
			if got := int(requests.Load()); got != c.want {
				t.Errorf("%d requests for %d chunks from two concurrent runs:\n%s\n%s", got, chunks, outs[0], outs[1])
			}
		})
	}
}
