package atomicdir

import (
	"errors"
	"path/filepath"
)

// Hold locks the working folder dir for the whole of a run that reads and
// writes inside it (databases and copies reused by reruns), so that two runs
// sharing it take turns instead of writing the same files at once: the
// second waits for the first and then reuses what it left. It takes the lock
// of Begin on ".lock" inside dir (which must exist), calling waiting once,
// before it waits, when another holder has it. release gives the lock back.
func Hold(dir string, waiting func()) (release func(), err error) {
	path := filepath.Join(dir, ".lock")
	l, err := acquire(path)
	if errors.Is(err, ErrBusy) {
		if waiting != nil {
			waiting()
		}
		l, err = await(path)
	}
	if err != nil {
		return nil, err
	}
	return l.release, nil
}
