package main

import (
	"strings"
	"testing"
)

// TestBenchmarkEmbedURLIsLoopbackOnly: the units study sends the data set's
// text to --embed-url only on a loopback address (the benchmark has no
// --allow-remote) and only with --embed-model; both are usage errors before
// anything is read or sent.
func TestBenchmarkEmbedURLIsLoopbackOnly(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--embed-model", "use-lite-512", "--embed-url", "http://embeddings.invalid/v1"}, "not a loopback address"},
		{[]string{"--embed-model", "use-lite-512", "--embed-url", "http://192.168.1.2:8791/v1"}, "not a loopback address"},
		{[]string{"--embed-url", "http://127.0.0.1:8791/v1"}, "--embed-url needs --embed-model"},
		{[]string{"--embed-model", "use-lite-512", "--embed-url", "ftp://127.0.0.1:8791"}, "http://"},
		{[]string{"--units", "session,sentence"}, "--units session,sentence: expected a comma-separated list of turn, session, chunk"},
	} {
		args := append([]string{"benchmark", "--data", dir + "/missing", "--out", dir + "/out"}, c.args...)
		code, _, stderr := providerSideRun(t, args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 naming %q", c.args, code, stderr, c.want)
		}
	}
}
