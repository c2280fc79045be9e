//go:build unix

package kagome

import (
	"os"

	"golang.org/x/sys/unix"
)

// readShared maps the file at path read-only into memory for the rest of
// the process: a process reads only the pages its analyses touch.
func readShared(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() == 0 {
		return []byte{}, nil
	}
	return unix.Mmap(int(f.Fd()), 0, int(info.Size()), unix.PROT_READ, unix.MAP_SHARED)
}
