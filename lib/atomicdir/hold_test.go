package atomicdir_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/linemem/linemem/lib/atomicdir"
)

// TestHoldTakesTurns: a second Hold on a held folder says it waits and
// returns only after the first is released; a Hold on a free folder does
// not wait.
func TestHoldTakesTurns(t *testing.T) {
	dir := t.TempDir()
	var waited atomic.Int32
	release, err := atomicdir.Hold(dir, func() { waited.Add(1) })
	if err != nil || waited.Load() != 0 {
		t.Fatalf("first Hold: %v, waited %d times", err, waited.Load())
	}
	var released atomic.Bool
	got := make(chan error)
	go func() {
		release2, err := atomicdir.Hold(dir, func() { waited.Add(1) })
		if err == nil {
			if !released.Load() {
				t.Error("the second Hold returned while the first held the folder")
			}
			release2()
		}
		got <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); waited.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the waiter is now blocked in the lock
	released.Store(true)
	release()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if waited.Load() != 1 {
		t.Errorf("waiting was called %d times, want once", waited.Load())
	}
}
