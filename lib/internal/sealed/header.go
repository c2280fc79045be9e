package sealed

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Layout is one kind of the module's binary files (the BM25 index, the
// dense matrix, the derived-file envelope around them), which all start
// with the same header:
//
//	8-byte magic, format, then Fields counts or lengths
//
// the numbers little-endian uint32, Size() bytes in all. The magic says what
// the file is, the format which layout of it; a reader accepts one format.
type Layout struct {
	Name   string // what the file is, in errors: "bm25 index"
	Magic  [8]byte
	Format uint32
	Fields int
}

// Size is the header's length in bytes: 12 + 4·Fields.
func (l Layout) Size() int { return 12 + 4*l.Fields }

// AppendHeader appends the header with the given fields to b. A number of
// fields other than l.Fields is a programmer's mistake and panics.
func (l Layout) AppendHeader(b []byte, fields ...uint32) []byte {
	if len(fields) != l.Fields {
		panic(fmt.Sprintf("sealed: %s header with %d fields, want %d", l.Name, len(fields), l.Fields))
	}
	b = append(b, l.Magic[:]...)
	b = binary.LittleEndian.AppendUint32(b, l.Format)
	for _, f := range fields {
		b = binary.LittleEndian.AppendUint32(b, f)
	}
	return b
}

// ErrForeign is the error, wrapped with the layout's name, for data shorter
// than the header or not starting with the magic.
var ErrForeign = errors.New("not a file of this kind")

// ErrChecksum is OpenSealed's error, wrapped with the layout's name, for a
// sealed file whose trailer is not the checksum of the bytes before it.
var ErrChecksum = errors.New("damaged file (checksum)")

// FormatError is the error for a file of the right magic but another format.
type FormatError struct {
	Name      string
	Got, Want uint32
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: format %d, expected %d", e.Name, e.Got, e.Want)
}

// ReadHeader returns the fields of the header at the start of data. The
// magic is checked first (ErrForeign, also when data is shorter than the
// header), then the format (*FormatError).
func (l Layout) ReadHeader(data []byte) ([]uint32, error) {
	if len(data) < l.Size() || [8]byte(data[:8]) != l.Magic {
		return nil, fmt.Errorf("%s: %w", l.Name, ErrForeign)
	}
	if got := binary.LittleEndian.Uint32(data[8:]); got != l.Format {
		return nil, &FormatError{Name: l.Name, Got: got, Want: l.Format}
	}
	fields := make([]uint32, l.Fields)
	for i := range fields {
		fields[i] = binary.LittleEndian.Uint32(data[12+4*i:])
	}
	return fields, nil
}

// OpenSealed reads the header of a sealed file (as ReadHeader, with data
// required to hold the 4-byte trailer as well, else ErrForeign), then checks
// the trailer (ErrChecksum). It returns the fields and the body: data
// without the trailer, header included.
func (l Layout) OpenSealed(data []byte) (fields []uint32, body []byte, err error) {
	if len(data) < l.Size()+4 {
		return nil, nil, fmt.Errorf("%s: %w", l.Name, ErrForeign)
	}
	if fields, err = l.ReadHeader(data); err != nil {
		return nil, nil, err
	}
	body, ok := Body(data)
	if !ok {
		return nil, nil, fmt.Errorf("%s: %w", l.Name, ErrChecksum)
	}
	return fields, body, nil
}
