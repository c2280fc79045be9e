//go:build !unix

package regularfile

const openNonblock = 0
