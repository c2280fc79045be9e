// Package sealed writes and checks sealed files: any bytes followed by a
// little-endian CRC-32 (IEEE) of every byte before it, the trailer of the
// derived index files that lib/bm25 and lib/dense write and open in place.
// Layout describes the one header (magic, format, counts) of those files and
// of lib/retrieval's derived-file envelope around them.
//
// It imports only the standard library.
package sealed

import (
	"bufio"
	"encoding/binary"
	"hash"
	"hash/crc32"
	"io"
)

// Writer buffers what is written to it, counts it and checksums it; Seal
// appends the checksum.
type Writer struct {
	w   io.Writer
	crc hash.Hash32
	cw  *countWriter
	*bufio.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer {
	crc := crc32.NewIEEE()
	cw := &countWriter{w: io.MultiWriter(w, crc)}
	return &Writer{w: w, crc: crc, cw: cw, Writer: bufio.NewWriterSize(cw, 1<<20)}
}

// Seal writes what is buffered, then the 4-byte checksum of everything
// written, and returns the number of bytes that reached the underlying
// writer, trailer included.
func (s *Writer) Seal() (int64, error) {
	if err := s.Flush(); err != nil {
		return s.cw.n, err
	}
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], s.crc.Sum32())
	n, err := s.w.Write(buf[:])
	return s.cw.n + int64(n), err
}

// Uint32 writes v as 4 little-endian bytes.
func (s *Writer) Uint32(v uint32) {
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], v)
	s.Write(buf[:])
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Body returns data without its 4-byte trailer; ok is false when data is
// shorter than the trailer or the trailer is not the CRC-32 of the bytes
// before it.
func Body(data []byte) (body []byte, ok bool) {
	if len(data) < 4 {
		return nil, false
	}
	body = data[:len(data)-4]
	return body, crc32.ChecksumIEEE(body) == binary.LittleEndian.Uint32(data[len(data)-4:])
}
