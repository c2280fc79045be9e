package datasets

import "testing"

// TestLineCounter: the line of each offset, in any order of calls (an
// offset below the previous one is counted from the start), clamped to the
// data.
func TestLineCounter(t *testing.T) {
	data := []byte("ab\ncd\n\nef") // lines start at offsets 0, 3, 6, 7
	c := &lineCounter{data: data, line: 1}
	for _, step := range []struct {
		off  int64
		want int
	}{
		{0, 1}, {2, 1}, {3, 2}, {7, 4}, {7, 4}, {4, 2}, {6, 3}, {1, 1}, {100, 4}, {-5, 1},
	} {
		if got := c.at(step.off); got != step.want {
			t.Errorf("at(%d) = %d, want %d", step.off, got, step.want)
		}
	}
}
