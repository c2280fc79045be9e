// Package inputerr is linemem's one error type for bad input. Every reader
// (exports, questions, qrels, evidence, summaries, vectors) reports a problem
// as an *Error that names the file, the 1-based line, the byte offset when it
// is known, and what was expected there, so a user can open the file at the
// right place. Packages re-export it as their own InputError.
package inputerr

import (
	"fmt"
	"unicode/utf8"
)

// Error reports bad input.
type Error struct {
	File     string
	Line     int   // 1-based
	Offset   int64 // byte offset of the problem from the start of the file; 0 when unknown
	Expected string
}

// Error formats "FILE:LINE: expected EXPECTED", followed by ", byte OFFSET"
// when the offset is known (positive).
func (e *Error) Error() string {
	if e.Offset > 0 {
		return fmt.Sprintf("%s:%d: expected %s, byte %d", e.File, e.Line, e.Expected, e.Offset)
	}
	return fmt.Sprintf("%s:%d: expected %s", e.File, e.Line, e.Expected)
}

// At returns an *Error for line of file.
func At(file string, line int, expected string) *Error {
	return &Error{File: file, Line: line, Expected: expected}
}

// Atf is At with a formatted expectation.
func Atf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Expected: fmt.Sprintf(format, args...)}
}

// InvalidUTF8 returns the byte offset of the first invalid UTF-8 sequence
// in data, or -1 when data is valid UTF-8 throughout.
func InvalidUTF8(data []byte) int {
	if utf8.Valid(data) {
		return -1
	}
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return -1
}
