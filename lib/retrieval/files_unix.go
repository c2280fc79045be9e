//go:build unix

package retrieval

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at path read-only into memory. release unmaps it;
// the bytes must not be used after. An empty file gives empty bytes.
func mapFile(path string) (data []byte, release func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.Size() == 0 {
		return []byte{}, func() {}, nil
	}
	data, err = unix.Mmap(int(f.Fd()), 0, int(info.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { unix.Munmap(data) }, nil
}

// lockFile takes an exclusive lock on the file at path (flock(2); the file is
// created when missing), waiting while another process, or another open of
// it, holds one. unlock releases it. When the file cannot be created or
// locked — a read-only folder — it returns at once with an unlock that does
// nothing, and the caller goes on unlocked.
func lockFile(path string) (unlock func()) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return func() {}
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() } // closing the file releases the lock
}
