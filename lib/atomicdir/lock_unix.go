//go:build unix

package atomicdir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile is a held advisory lock on a lock file.
type lockFile struct {
	path string
	f    *os.File
}

// acquire takes an exclusive flock on path without waiting (ErrBusy when
// another holder has it). The file may have been removed and created again
// by a writer releasing it between our open and our lock: then the lock is
// on an unlinked file and the attempt is repeated.
func acquire(path string) (*lockFile, error) { return lock(path, unix.LOCK_NB) }

// await takes the lock of acquire, waiting for its holder to release it.
func await(path string) (*lockFile, error) { return lock(path, 0) }

func lock(path string, wait int) (*lockFile, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|wait); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return &lockFile{path: path, f: f}, nil
		}
		f.Close()
	}
}

// release removes the lock file, then unlocks it.
func (l *lockFile) release() {
	os.Remove(l.path)
	l.f.Close()
}
