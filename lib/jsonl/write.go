package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// Writer writes JSON lines: each value as encoding/json encodes it (struct
// fields in declaration order, map keys sorted), on one line ending in "\n",
// with "<", ">" and "&" left as they are rather than escaped as \u003c,
// \u003e and \u0026 (non-ASCII text is never escaped). Output is buffered:
// Flush writes it out.
type Writer struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriter(w)
	return &Writer{bw: bw, enc: newEncoder(bw)}
}

// Write writes v as one line. A value encoding/json cannot encode is an
// error and writes nothing.
func (w *Writer) Write(v any) error { return w.enc.Encode(v) }

// Flush writes any buffered lines to the underlying writer.
func (w *Writer) Flush() error { return w.bw.Flush() }

// WriteAll writes every row as one line, in order, and flushes.
func WriteAll[T any](w io.Writer, rows []T) error {
	jw := NewWriter(w)
	for _, r := range rows {
		if err := jw.Write(r); err != nil {
			return err
		}
	}
	return jw.Flush()
}

// Marshal returns v encoded as one line the way Writer writes it, without
// the line ending.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := newEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteIndented writes v as one JSON document, not a line: the encoding of
// Writer, indented by two spaces per level, with a trailing "\n". It is the
// form of the project's JSON reports.
func WriteIndented(w io.Writer, v any) error {
	enc := newEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
