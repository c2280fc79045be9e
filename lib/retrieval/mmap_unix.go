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
