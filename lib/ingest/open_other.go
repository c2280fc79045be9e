//go:build !unix

package ingest

// openNonblock has no counterpart here; files are checked after opening.
const openNonblock = 0
