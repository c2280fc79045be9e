// Package atomicdir replaces a folder as a whole. Begin locks the target and
// creates an empty temporary folder beside it (".NAME.tmp-*", on the same
// file system); the caller writes the new version there; Commit swaps it into
// place in one rename and removes the earlier version. Until Commit, the
// target keeps its earlier content, byte for byte: a failed write, an error
// found late or a kill leaves the target as it was, and the temporary folder
// behind (removed by the next Begin on the same target). A second Begin on
// a target that a live writer holds is refused at once (ErrBusy), so two
// writers never mix their files.
//
// The lock is an advisory lock (flock on Linux and the BSDs) on ".NAME.lock"
// beside the target, released by the kernel when its holder dies; the lock
// file is removed on Commit and Abort. On Linux the swap is
// renameat2(RENAME_EXCHANGE): at every instant the target is either the
// earlier or the complete new folder. Elsewhere the earlier folder is first
// renamed aside (".NAME.old-*"), so a kill between the two renames leaves the
// target missing and the earlier folder under that name.
//
// Hold takes the same lock on a working folder for a whole run, waiting for
// a live holder instead of refusing, so two runs that share the folder take
// turns.
//
// It imports the standard library and golang.org/x/sys/unix.
package atomicdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrBusy is returned by Begin when another writer holds the target.
var ErrBusy = errors.New("another writer is replacing this folder")

// Dir is one replacement of a target folder in progress.
type Dir struct {
	target string
	tmp    string
	lock   *lockFile
	done   bool
}

// Begin locks target and returns a Dir whose Path is a new empty folder
// beside it. When target exists, check (if not nil) is called with it under
// the lock, before anything is created: an error from check is returned and
// nothing is changed. Leftover temporary folders of an earlier, interrupted
// replacement of target are removed. target's parent folder must exist.
func Begin(target string, check func(existing string) error) (*Dir, error) {
	target = filepath.Clean(target)
	parent, base := filepath.Dir(target), filepath.Base(target)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("atomicdir: %q: expected a folder name, not %q", target, base)
	}
	if info, err := os.Stat(parent); err != nil {
		return nil, err
	} else if !info.IsDir() {
		return nil, fmt.Errorf("atomicdir: %s is not a folder", parent)
	}
	lock, err := acquire(filepath.Join(parent, "."+base+".lock"))
	if err != nil {
		if errors.Is(err, ErrBusy) {
			return nil, fmt.Errorf("%s: %w", target, ErrBusy)
		}
		return nil, err
	}
	if info, err := os.Lstat(target); err == nil {
		if !info.IsDir() {
			lock.release()
			return nil, fmt.Errorf("atomicdir: %s exists and is not a folder", target)
		}
		if check != nil {
			if err := check(target); err != nil {
				lock.release()
				return nil, err
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		lock.release()
		return nil, err
	}
	if err := removeLeftovers(parent, base); err != nil {
		lock.release()
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		lock.release()
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		lock.release()
		return nil, err
	}
	return &Dir{target: target, tmp: tmp, lock: lock}, nil
}

// Path is the temporary folder to write the new version into.
func (d *Dir) Path() string { return d.tmp }

// Target is the folder being replaced.
func (d *Dir) Target() string { return d.target }

// Commit puts the temporary folder in the target's place, removes the
// earlier version and releases the lock. After an error the target holds
// either its earlier content or the complete new one (never a mix); the lock
// is released in both cases.
func (d *Dir) Commit() error {
	if d.done {
		return errors.New("atomicdir: Commit or Abort called twice")
	}
	d.done = true
	defer d.lock.release()
	old, err := replace(d.tmp, d.target)
	if err != nil {
		os.RemoveAll(d.tmp)
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// Abort removes the temporary folder and releases the lock; the target is
// left as it was. Abort after Commit does nothing, so `defer d.Abort()`
// covers every early return.
func (d *Dir) Abort() error {
	if d.done {
		return nil
	}
	d.done = true
	defer d.lock.release()
	return os.RemoveAll(d.tmp)
}

// removeLeftovers removes ".BASE.tmp-*" and ".BASE.old-*" in parent, the
// folders a killed replacement left behind. The caller holds the lock.
func removeLeftovers(parent, base string) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, "."+base+".tmp-") || strings.HasPrefix(n, "."+base+".old-") {
			if err := os.RemoveAll(filepath.Join(parent, n)); err != nil {
				return err
			}
		}
	}
	return nil
}
