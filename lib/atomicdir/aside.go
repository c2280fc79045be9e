package atomicdir

import (
	"errors"
	"os"
	"path/filepath"
)

// replaceAside renames target (when it exists) to ".NAME.old-*" beside it,
// then tmp to target, and returns the earlier version's new path. A failure
// of the second rename puts the earlier version back.
func replaceAside(tmp, target string) (string, error) {
	old := ""
	if _, err := os.Lstat(target); err == nil {
		old = filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".old-"+filepath.Base(tmp))
		if err := os.Rename(target, old); err != nil {
			return "", err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		if old != "" {
			os.Rename(old, target)
		}
		return "", err
	}
	return old, nil
}
