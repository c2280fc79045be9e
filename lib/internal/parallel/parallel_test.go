package parallel_test

import (
	"sync/atomic"
	"testing"

	"github.com/linemem/linemem/lib/internal/parallel"
)

func TestForCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 1000} {
		counts := make([]atomic.Int32, n)
		parallel.For(n, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("n = %d: index %d called %d times, want 1", n, i, c)
			}
		}
	}
}
