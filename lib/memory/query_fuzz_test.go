package memory_test

import (
	"errors"
	"testing"

	"github.com/linemem/linemem/lib/memory"
)

// FuzzParseTime: any string a person or a client sends as since or until
// parses or is a bad query; never a panic, and a parsed lower bound is not
// after the upper bound of the same value.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"", "2024-10-15", "2024-10-15T20:00", "2024-10-15 20:00:30", "2024-10-15T20:00:00+09:00", "2024-10-15T11:00:00.123Z", "last week", "2024-02-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		lo, err := memory.ParseTime(v, false)
		if err != nil {
			if !errors.Is(err, memory.ErrBadQuery) {
				t.Fatalf("ParseTime(%q): %v is not a bad query", v, err)
			}
			return
		}
		hi, err := memory.ParseTime(v, true)
		if err != nil || hi.Before(lo) {
			t.Fatalf("ParseTime(%q): lower %v, upper %v, %v", v, lo, hi, err)
		}
	})
}

// FuzzSplitNames: every name SplitNames returns is non-empty, trimmed and
// free of commas.
func FuzzSplitNames(f *testing.F) {
	f.Add("tennis, 佐藤,,かぞく ")
	f.Fuzz(func(t *testing.T, v string) {
		for _, n := range memory.SplitNames(v) {
			if n == "" || n[0] == ' ' || n[len(n)-1] == ' ' || containsComma(n) {
				t.Fatalf("SplitNames(%q) gave %q", v, n)
			}
		}
	})
}

func containsComma(s string) bool {
	for _, r := range s {
		if r == ',' {
			return true
		}
	}
	return false
}
