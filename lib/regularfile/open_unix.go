//go:build unix

package regularfile

import "golang.org/x/sys/unix"

const openNonblock = unix.O_NONBLOCK
