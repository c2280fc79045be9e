//go:build unix

package main

import (
	"bufio"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServePrintsItsURLFirstAndStopsOnInterrupt checks the serve contract:
// port 0 picks a free port, the first stdout line is the base URL, the pages
// answer there, and SIGINT ends the command cleanly.
func TestServePrintsItsURLFirstAndStopsOnInterrupt(t *testing.T) {
	db := filepath.Join(t.TempDir(), "wb.db")
	run(t, "ingest", "--db", db, workbenchFile("sources"))
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runMain(&environment{stdout: pw, stderr: io.Discard}, []string{"serve", "--db", db, "--addr", "127.0.0.1:0"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSpace(line)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*/$`).MatchString(base) {
		t.Fatalf("first stdout line %q, want http://127.0.0.1:PORT/", line)
	}
	resp, err := http.Get(base + "search?q=" + url.QueryEscape("新歓の会場"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "学生会館") {
		t.Errorf("search page: %d", resp.StatusCode)
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d after SIGINT, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
}
