package lineexport

import (
	"bytes"
	"testing"
)

// TestLineIndex asks lineOf for offsets in any order (forwards, backwards,
// repeated, out of range) and compares with the definition: the line holding
// byte off is 1 + the newlines before it, off clamped to [0, len(data)].
func TestLineIndex(t *testing.T) {
	data := []byte("a\nbb\n\nccc\nd")
	x := newLineIndex(data)
	for _, off := range []int64{0, 3, 5, 11, 2, 9, 9, 1, 6, 0, -4, 40, 4} {
		want := 1 + bytes.Count(data[:max(0, min(off, int64(len(data))))], []byte{'\n'})
		if got := x.lineOf(off); got != want {
			t.Errorf("lineOf(%d) = %d, want %d", off, got, want)
		}
	}
}
