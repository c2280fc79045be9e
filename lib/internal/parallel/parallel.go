// Package parallel runs independent index-addressed work on all cores.
package parallel

import (
	"runtime"
	"sync"
)

// For runs f(0), …, f(n−1) on up to GOMAXPROCS goroutines, each taking the
// next unclaimed index, and returns when all have finished. With one worker
// (or n ≤ 1) it runs them in order on the calling goroutine. f must be safe
// to call concurrently for different indices.
func For(n int, f func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				f(i)
			}
		})
	}
	wg.Wait()
}
