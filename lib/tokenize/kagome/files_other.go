//go:build !unix

package kagome

import "os"

// readShared reads the file at path into memory (systems without mmap).
func readShared(path string) ([]byte, error) { return os.ReadFile(path) }
