//go:build !unix

package retrieval

import "os"

// mapFile reads the file at path into memory (systems without mmap).
func mapFile(path string) (data []byte, release func(), err error) {
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}

// lockFile does nothing on systems without flock: processes that find the
// same derived file missing at once may each build it.
func lockFile(string) (unlock func()) { return func() {} }
