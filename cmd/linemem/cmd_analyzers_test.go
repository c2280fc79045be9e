package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
)

// TestParseBM25Params checks the k1:b pairs of `analyzers everyday --bm25`.
func TestParseBM25Params(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bm25.Params
		ok   bool
	}{
		{"1.2:0.75", bm25.SpecParams(), true},
		{"0.8:0.5", bm25.Params{K1: 0.8, B: 0.5}, true},
		{" 2 : 1 ", bm25.Params{K1: 2, B: 1}, true},
		{"0:0", bm25.Params{}, true},
		{"1.2", bm25.Params{}, false},
		{"1.2:1.5", bm25.Params{}, false},
		{"-1:0.5", bm25.Params{}, false},
		{"a:b", bm25.Params{}, false},
		{"NaN:0.5", bm25.Params{}, false},
	} {
		got, err := parseBM25Params(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("parseBM25Params(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestAnalyzersEverydayRefusesBadSettings checks that a malformed --bm25
// and a weight outside [0, 1] are usage errors (exit 2) naming the flag and
// what was expected, before any folder is read.
func TestAnalyzersEverydayRefusesBadSettings(t *testing.T) {
	for _, c := range []struct {
		args []string
		says []string
	}{
		{[]string{"--bm25", "1.2"}, []string{"--bm25", "k1:b"}},
		{[]string{"--passage-weights", "1.5"}, []string{"--passage-weights", "[0, 1]"}},
		{[]string{"--type-weights", "-0.35"}, []string{"--type-weights", "[0, 1]"}},
	} {
		var out, errOut bytes.Buffer
		code := runMain(&environment{stdout: &out, stderr: &errOut}, append([]string{"analyzers", "everyday", "--corpus", "x=/nonexistent"}, c.args...))
		ok := code == 2
		for _, s := range c.says {
			ok = ok && strings.Contains(errOut.String(), s)
		}
		if !ok {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message naming %q", c.args, code, errOut.String(), c.says)
		}
	}
}
