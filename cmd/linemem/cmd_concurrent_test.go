package main

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
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

// TestDeadEndpointStops: against a port where nothing listens, a request is
// not retried (connection refused fails the same way at once) and the run
// stops after --max-failures failed requests in a row.
func TestDeadEndpointStops(t *testing.T) {
	providerSideDB(t) // sets the provider environment
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	for _, args := range [][]string{
		{"summarize", "--provider", "openai"},
		{"embed", "--provider", "openai", "--rep", "raw_text", "--dimensions", "8", "--batch", "1"},
	} {
		args = append(args, "--db", db, "--base-url", dead, "--allow-remote", "--interval", "0", "--max-attempts", "3", "--max-failures", "3")
		code, out, stderr := ingestSideRun(t, args...)
		if code == 0 || !strings.Contains(stderr, "the last 3 requests failed") || !strings.Contains(out, "3 failed, 4 not reached") ||
			!strings.Contains(out, "after 1 attempt(s)") || strings.Contains(out, "after 3 attempt(s)") {
			t.Errorf("%s: exit %d\n%s%s", args[0], code, out, stderr)
		}
	}
}

// TestBadBaseURLIsAUsageError: an unparseable --base-url or OPENAI_BASE_URL
// stops summarize and embed with exit 2 before any request, instead of
// being retried as a transient failure.
func TestBadBaseURLIsAUsageError(t *testing.T) {
	providerSideDB(t) // sets the provider environment
	db := ingestSideDB(t)
	ingestSideMust(t, "ingest", "--db", db, filepath.Join("..", "..", "lib", "mcpserver", "testdata"))
	for _, c := range []struct{ flag, env, named string }{
		{"http://[::1", "", "--base-url"},
		{"", "localhost:8080/v1", "OPENAI_BASE_URL"},
	} {
		t.Setenv("OPENAI_BASE_URL", c.env)
		for _, cmd := range [][]string{
			{"summarize", "--provider", "openai"},
			{"embed", "--provider", "openai", "--rep", "raw_text", "--dimensions", "8"},
		} {
			args := append(append([]string(nil), cmd...), "--db", db, "--allow-remote", "--max-attempts", "6")
			if c.flag != "" {
				args = append(args, "--base-url", c.flag)
			}
			code, out, stderr := ingestSideRun(t, args...)
			if code != 2 || !strings.Contains(stderr, "bad service URL: "+c.named) || strings.Contains(out, "attempt") {
				t.Errorf("%v (OPENAI_BASE_URL %q): exit %d\n%s%s", args, c.env, code, out, stderr)
			}
		}
	}
}
