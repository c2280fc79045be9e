//go:build !unix

package atomicdir

import (
	"errors"
	"os"
	"time"
)

// lockFile is a lock file created exclusively; a killed holder leaves it
// behind, and it must then be removed by hand.
type lockFile struct{ path string }

func acquire(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, ErrBusy
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return &lockFile{path: path}, nil
}

func (l *lockFile) release() { os.Remove(l.path) }

// await polls acquire until the holder removes the lock file.
func await(path string) (*lockFile, error) {
	for {
		l, err := acquire(path)
		if !errors.Is(err, ErrBusy) {
			return l, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}
