package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRobustnessRejectsBadInput: a bad seed list, scale, worker count or a
// stray argument is a usage error (exit 2) that names the problem and
// writes nothing.
func TestRobustnessRejectsBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "20-1"}, `item 1 "20-1": expected a range A-B with A ≤ B`},
		{[]string{"--seeds", "1,x"}, `item 2 "x": expected a non-negative integer seed`},
		{[]string{"--seeds", ""}, "expected a seed N, a range A-B"},
		{[]string{"--seeds", "1-3,2"}, "seed 2 is also in item 1"},
		{[]string{"--seeds", "1", "--scale", "huge"}, `--scale "huge"`},
		{[]string{"--seeds", "1", "--workers", "-1"}, "--workers must be between 0 and 1024, got -1"},
		{[]string{"stray", "--seeds", "1"}, "unexpected arguments [stray]"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := goldCLI(append([]string{"robustness", "--out", out}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s was created", out)
			}
		})
	}
}
