package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// profiledWork keeps the profiled loop from being optimised away.
var profiledWork int

// TestProfiled checks that each profiling variable yields a file its reader
// accepts, and that the command's exit code comes through unchanged.
func TestProfiled(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{
		envCPUProfile: filepath.Join(dir, "cpu.prof"),
		envMemProfile: filepath.Join(dir, "mem.prof"),
		envTrace:      filepath.Join(dir, "run.trace"),
	}
	for name, path := range paths {
		t.Setenv(name, path)
	}
	var stderr bytes.Buffer
	code := profiled(&stderr, func() int {
		for i := range 1_000_000 {
			profiledWork += i % 7
		}
		return 3
	})
	if code != 3 {
		t.Errorf("exit code %d, want the command's 3", code)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
	for _, name := range []string{envCPUProfile, envMemProfile} {
		// A pprof profile is a gzip-compressed protocol buffer.
		f, err := os.Open(paths[name])
		if err != nil {
			t.Fatal(err)
		}
		n := int64(0)
		zr, err := gzip.NewReader(f)
		if err == nil {
			n, err = io.Copy(io.Discard, zr)
		}
		f.Close()
		if err != nil || n == 0 {
			t.Errorf("%s: %d bytes of profile, err %v", name, n, err)
		}
	}
	trace, err := os.ReadFile(paths[envTrace])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(trace), "go 1.") {
		t.Errorf("%s: file starts %q, want an execution trace header", envTrace, trace[:min(len(trace), 16)])
	}
}

// TestProfiledBadPath reports a profile that cannot be written on stderr
// and keeps the command's exit code.
func TestProfiledBadPath(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "folder")
	for _, name := range []string{envCPUProfile, envMemProfile, envTrace} {
		t.Setenv(name, filepath.Join(missing, name))
	}
	var stderr bytes.Buffer
	if code := profiled(&stderr, func() int { return 0 }); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	for _, name := range []string{envCPUProfile, envMemProfile, envTrace} {
		if !strings.Contains(stderr.String(), name) {
			t.Errorf("stderr %q does not name %s", stderr.String(), name)
		}
	}
}
