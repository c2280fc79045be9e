// Package atomicfile writes a file whole: the bytes go to a temporary file
// beside it, which is renamed over it only when every byte was written, so
// a reader sees the old file or the new one, never a part. A process that
// has the old file open or mapped keeps reading the old bytes. The file is
// readable by its owner only (0600) and its folder is created 0700: the
// files written here (search indexes, a dictionary cache) are derived from
// private text. The file is not synced to disk; its readers check it (a
// CRC-32 trailer, lib/internal/sealed) and rebuild a damaged one.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// bufferSize is the write buffer between write and the temporary file.
const bufferSize = 1 << 20

// Write creates path's folder (0700) when missing, lets write fill a
// temporary file "BASE.*.tmp" beside path through a buffer, and renames it
// over path with mode 0600. When write or any step fails, path is left as it
// was, the temporary file is removed and the error is returned.
func Write(path string, write func(w io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, bufferSize)
	if err := write(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
