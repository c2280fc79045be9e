// Command benchmcpsessions measures what abandoned HTTP sessions cost
// `linemem mcp --http`: it starts the server with a short --idle-timeout,
// opens N sessions (an initialize request each, never ended), and reads the
// server's resident set size (VmRSS, /proc/PID/status; Linux only) before,
// right after, and once the idle time has passed. It exits 1 when the last
// figure is more than --limit above the first.
//
//	go build -o build/linemem ./cmd/linemem
//	go run ./scripts/benchmcpsessions --linemem build/linemem --db me.db
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"benchmcpsessions","version":"1"}}}`

func main() {
	linemem := flag.String("linemem", "linemem", "`PATH` of the linemem binary")
	db := flag.String("db", "", "database `FILE` to serve (any with chunks)")
	sessions := flag.Int("sessions", 4000, "sessions to open and abandon")
	idle := flag.Duration("idle", 5*time.Second, "the server's --idle-timeout")
	settle := flag.Duration("settle", 30*time.Second, "how long to wait after the idle time for the memory to be returned")
	limit := flag.Int("limit-mb", 10, "largest growth of the resident set, in MB, after the idle time")
	flag.Parse()
	if *db == "" || *sessions <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*linemem, *db, *sessions, *idle, *settle, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "benchmcpsessions:", err)
		os.Exit(1)
	}
}

func run(linemem, db string, n int, idle, settle time.Duration, limitMB int) error {
	cmd := exec.Command(linemem, "mcp", "--db", db, "--http", "127.0.0.1:0", "--idle-timeout", idle.String())
	cmd.Stdout = os.Stderr
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	errs := bufio.NewReader(stderr)
	line, err := errs.ReadString('\n')
	if err != nil {
		return fmt.Errorf("reading the server's first line: %w", err)
	}
	go io.Copy(os.Stderr, errs)
	at := strings.Index(line, "http://")
	if at < 0 {
		return fmt.Errorf("no URL in the server's first line %q", line)
	}
	url := strings.Fields(line[at:])[0]
	if _, err := initialize(url); err != nil { // the first session warms what every one shares
		return err
	}
	time.Sleep(idle + time.Second)
	start, err := rssMB(cmd.Process.Pid)
	if err != nil {
		return err
	}
	began := time.Now()
	if err := openSessions(url, n); err != nil {
		return err
	}
	openedAt := time.Now()
	opened, _ := rssMB(cmd.Process.Pid)
	fmt.Printf("resident set: %.1f MB at the start, %.1f MB after %d sessions (opened in %.1f s)\n", start, opened, n, openedAt.Sub(began).Seconds())
	var last float64
	deadline := time.Now().Add(idle + settle)
	for {
		time.Sleep(time.Second)
		if last, err = rssMB(cmd.Process.Pid); err != nil {
			return err
		}
		if (last-start <= float64(limitMB) && time.Since(openedAt) > idle) || time.Now().After(deadline) {
			break
		}
	}
	fmt.Printf("resident set: %.1f MB %.0f s after the last session was opened (idle timeout %v): %+.1f MB against the start, limit %d MB\n", last, time.Since(openedAt).Seconds(), idle, last-start, limitMB)
	if last-start > float64(limitMB) {
		return fmt.Errorf("abandoned sessions still hold %.1f MB after the idle time", last-start)
	}
	return nil
}

// openSessions sends n initialize requests, 8 at a time, and never ends the
// sessions they open.
func openSessions(url string, n int) error {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	jobs := make(chan struct{})
	for range 8 {
		wg.Go(func() {
			for range jobs {
				if _, err := initialize(url); err != nil {
					errs <- err
				}
			}
		})
	}
	for range n {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	return <-errs
}

func initialize(url string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(initializeBody))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("initialize: HTTP %s", resp.Status)
	}
	return resp.Header.Get("Mcp-Session-Id"), nil
}

// rssMB reads VmRSS of process pid, in MB (10^6 bytes).
func rssMB(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("resident set size: %w (Linux only)", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			return kb * 1024 / 1e6, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}
