package atomicdir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// replace puts folder tmp at target: a plain rename when target does not
// exist, else one renameat2(RENAME_EXCHANGE), after which tmp holds the
// earlier version; it returns the path of that earlier version ("" when
// there was none).
func replace(tmp, target string) (string, error) {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE)
	if err == nil {
		return tmp, nil
	}
	if !errors.Is(err, unix.ENOENT) {
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
			return replaceAside(tmp, target)
		}
		return "", &os.LinkError{Op: "exchange", Old: tmp, New: target, Err: err}
	}
	return "", os.Rename(tmp, target)
}
