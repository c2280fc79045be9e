package datasets

import (
	"maps"
	"testing"
)

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

// TestTopWords: the n most frequent words, ties alphabetical. Ten words
// with the counts 1 to 10 keep the five of counts 6 to 10 whatever order
// the map gives them in (asked three times, three orders).
func TestTopWords(t *testing.T) {
	m := map[string]int{}
	want := map[string]int{}
	for c := 1; c <= 10; c++ {
		w := string(rune('a' + c))
		m[w] = c
		if c > 10-5 {
			want[w] = c
		}
	}
	for range 3 {
		if got := topWords(m, 5); !maps.Equal(got, want) {
			t.Fatalf("topWords = %v, want %v", got, want)
		}
	}
	tied := map[string]int{"zed": 3, "yes": 2, "ask": 1, "bay": 1, "cat": 1, "dog": 1}
	if got, want := topWords(tied, 4), map[string]int{"zed": 3, "yes": 2, "ask": 1, "bay": 1}; !maps.Equal(got, want) {
		t.Errorf("topWords = %v, want %v", got, want)
	}
}
