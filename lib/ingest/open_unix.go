//go:build unix

package ingest

import "golang.org/x/sys/unix"

// openNonblock keeps opening a named pipe from waiting for a writer.
const openNonblock = unix.O_NONBLOCK
