package store

import (
	"os"

	"golang.org/x/sys/unix"
)

const writebackSupported = true

// startWriteback starts the writing of f's dirty pages to the disk without
// waiting for it (sync_file_range(2) with SYNC_FILE_RANGE_WRITE); errors are
// ignored, as the later fsync reports any that matter.
func startWriteback(f *os.File) {
	unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}
