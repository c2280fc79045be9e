package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/inputerr"
)

// lineBatchBytes is about how much of a file one parser takes at a time.
const lineBatchBytes = 1 << 20

// byteOrderMark is skipped once at the start of a file, as lib/jsonl does.
var byteOrderMark = []byte("\xef\xbb\xbf")

// lineBatch is a run of whole lines, parsed by one worker: vals[i] is the
// value of line lines[i]; err is the first error of the batch, on the line
// after the last value.
type lineBatch[T any] struct {
	text  []byte
	first int // number of the first line of text
	vals  []T
	lines []int
	err   error
	ready chan struct{}
}

// parallelLines walks JSON-lines input exactly as jsonl.Lines does (1-based
// line numbers, blank lines skipped, a leading byte-order mark skipped, each
// line trimmed of white space and required to be valid UTF-8), but runs parse
// on runtime.GOMAXPROCS(0) goroutines, about lineBatchBytes of the file each,
// while each is called on the caller's goroutine for every parsed line in
// file order. The first error in file order — from reading, the UTF-8 check,
// parse or each — stops the walk and is returned; parse must therefore not
// depend on lines before its own. At most a few batches are held in memory.
func parallelLines[T any](file string, r io.Reader, parse func(line int, data []byte) (T, error), each func(line int, v T) error) error {
	workers := runtime.GOMAXPROCS(0)
	done := make(chan struct{})
	defer close(done)
	jobs := make(chan *lineBatch[T], workers)
	order := make(chan *lineBatch[T], 2*workers)
	var readErr error
	go func() {
		defer close(order)
		defer close(jobs)
		readErr = splitBatches(file, r, func(b *lineBatch[T]) bool {
			for _, ch := range []chan *lineBatch[T]{jobs, order} {
				select {
				case ch <- b:
				case <-done:
					return false
				}
			}
			return true
		})
	}()
	for range workers {
		go func() {
			for b := range jobs {
				select {
				case <-done:
				default:
					b.parse(file, parse)
				}
				close(b.ready)
			}
		}()
	}
	for b := range order {
		<-b.ready
		for i, v := range b.vals {
			if err := each(b.lines[i], v); err != nil {
				return err
			}
		}
		if b.err != nil {
			return b.err
		}
	}
	return readErr
}

// splitBatches reads r into batches of whole lines and hands each to send
// until send returns false; it returns a read error naming the line being read.
func splitBatches[T any](file string, r io.Reader, send func(*lineBatch[T]) bool) error {
	var carry []byte
	line := 1
	for {
		buf := make([]byte, len(carry), max(lineBatchBytes, 2*len(carry)))
		copy(buf, carry)
		n, err := io.ReadFull(r, buf[len(carry):cap(buf)])
		buf = buf[:len(carry)+n]
		end := err != nil
		if end && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)) {
			err = nil
		}
		cut := len(buf)
		if !end {
			cut = bytes.LastIndexByte(buf, '\n') + 1
			if cut == 0 {
				carry = buf // a line longer than the buffer: read on
				continue
			}
		}
		text := buf[:cut]
		carry = buf[cut:]
		if line == 1 {
			text = bytes.TrimPrefix(text, byteOrderMark)
		}
		first := line
		line += bytes.Count(text, []byte{'\n'})
		if len(text) > 0 && !send(&lineBatch[T]{text: text, first: first, ready: make(chan struct{})}) {
			return nil
		}
		if end {
			if err != nil {
				return fmt.Errorf("%s:%d: %w", file, line, err)
			}
			return nil
		}
	}
}

// parse fills b.vals, stopping at the batch's first error.
func (b *lineBatch[T]) parse(file string, parse func(line int, data []byte) (T, error)) {
	text, line := b.text, b.first
	for ; len(text) > 0; line++ {
		data := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			data, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 {
			continue
		}
		if !utf8.Valid(data) {
			b.err = inputerr.At(file, line, "valid UTF-8")
			return
		}
		v, err := parse(line, data)
		if err != nil {
			b.err = err
			return
		}
		b.vals = append(b.vals, v)
		b.lines = append(b.lines, line)
	}
}
