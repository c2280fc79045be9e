// Package regularfile reads input files that must be regular files. A named
// pipe, a device or a socket given where an input file is expected would
// block forever waiting for a writer, or never end: it is refused with an
// error naming the path and what it is, without reading a byte. The file is
// opened without blocking (so a pipe put in place of a checked file does not
// hang the open) and checked after opening; a symbolic link is followed.
//
// It imports the standard library and golang.org/x/sys/unix.
package regularfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is the error for a path that is not a regular file.
type NotRegularError struct {
	Path string
	What string // "a named pipe", "a device", …
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: %s, not a regular file; not read", e.Path, e.What)
}

// Kind names a file mode that is not a regular file: "a named pipe", "a
// socket", "a character device", "a device", "a folder", or "not a file".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a file"
}

// Open opens path for reading if it is a regular file (after following
// links), else returns a *NotRegularError.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, What: Kind(info.Mode())}
	}
	return f, nil
}

// ReadFile reads the whole of path if it is a regular file (see Open).
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Check returns nil when path is a regular file (after following links),
// the error of os.Stat when it cannot be read, else a *NotRegularError. It
// opens nothing, for a path that a library opens itself later.
func Check(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &NotRegularError{Path: path, What: Kind(info.Mode())}
	}
	return nil
}
