// Package jsonl reads and writes JSON-lines files (questions, evidence,
// summaries, vectors): one value per line. Lines walks a file (blank lines
// skipped, lines of any length); Writer, WriteAll and Marshal write values
// with one encoding, HTML characters unescaped; WriteIndented writes the
// same encoding as an indented JSON document.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/inputerr"
)

// byteOrderMark is skipped once at the start of a file.
var byteOrderMark = []byte("\xef\xbb\xbf")

// Lines calls each for every non-blank line of r with its 1-based number and
// its bytes, without the line ending and surrounding white space. A leading
// byte-order mark is skipped. A line that is not valid UTF-8 is an
// *inputerr.Error before each sees it; an error from each stops the walk and
// is returned as is. A read error (a truncated gzip stream) is returned as
// "FILE:LINE: error" for the line it cut, which each never sees. file names
// the input in errors.
func Lines(file string, r io.Reader, each func(line int, data []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		data, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if line == 1 {
			data = bytes.TrimPrefix(data, byteOrderMark)
		}
		if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 {
			if !utf8.Valid(trimmed) {
				return inputerr.At(file, line, "valid UTF-8")
			}
			if err := each(line, trimmed); err != nil {
				return err
			}
		}
		if err != nil {
			return nil
		}
	}
}
