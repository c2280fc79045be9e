package store

import (
	"os"
	"time"
)

// writeBehindEvery is how often a running write asks the kernel to start
// writing the database's dirty pages to the disk.
const writeBehindEvery = 50 * time.Millisecond

// writeBehind starts asking the kernel, every writeBehindEvery until stop is
// called, to begin writing the dirty pages of the database file and its WAL
// to the disk (startWriteback), so that the fsyncs of the commit and of its
// checkpoint find little left to write: a large write then overlaps its disk
// time with its own parsing and inserting instead of waiting for the disk at
// the end. It is a hint only: it changes neither what is written nor when a
// write is durable, does nothing for an in-memory database or where the
// system has no such call, and a file it cannot open is skipped.
func (s *Store) writeBehind() (stop func()) {
	if s.path == "" || s.path == ":memory:" || !writebackSupported {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		files := map[string]*os.File{}
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
		tick := time.NewTicker(writeBehindEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			for _, name := range []string{s.path + "-wal", s.path} {
				f := files[name]
				if f == nil {
					var err error
					if f, err = os.Open(name); err != nil {
						continue
					}
					files[name] = f
				}
				startWriteback(f)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
