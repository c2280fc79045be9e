package sealed

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Header is the fixed start of the module's binary files (the BM25 index,
// the dense matrix, the derived-file envelope around them):
//
//	8-byte magic, format, then len(Fields) counts or lengths
//
// all little-endian uint32, Size() bytes in all. The magic says what the
// file is, the format which layout of it; a reader accepts one format.
type Header struct {
	Magic  [8]byte
	Format uint32
	Fields []uint32
}

// Size is the header's length in bytes: 12 + 4·len(Fields).
func (h Header) Size() int { return 12 + 4*len(h.Fields) }

// Append appends the header's bytes to b.
func (h Header) Append(b []byte) []byte {
	b = append(b, h.Magic[:]...)
	b = binary.LittleEndian.AppendUint32(b, h.Format)
	for _, f := range h.Fields {
		b = binary.LittleEndian.AppendUint32(b, f)
	}
	return b
}

// ErrForeign is ReadHeader's error for data that is shorter than the header
// or does not start with the magic.
var ErrForeign = errors.New("not a file of this kind")

// FormatError is ReadHeader's error for a file of the right magic but
// another format.
type FormatError struct{ Got, Want uint32 }

func (e *FormatError) Error() string { return fmt.Sprintf("format %d, expected %d", e.Got, e.Want) }

// ReadHeader reads the header at the start of data, expecting magic, format
// and fields fields. It returns ErrForeign when data holds fewer than the
// header's bytes or another magic, a *FormatError when the format differs
// (the magic is checked first), and otherwise the header with its fields.
func ReadHeader(data []byte, magic [8]byte, format uint32, fields int) (Header, error) {
	h := Header{Magic: magic, Format: format, Fields: make([]uint32, fields)}
	if len(data) < h.Size() || [8]byte(data[:8]) != magic {
		return Header{}, ErrForeign
	}
	if got := binary.LittleEndian.Uint32(data[8:]); got != format {
		return Header{}, &FormatError{Got: got, Want: format}
	}
	for i := range h.Fields {
		h.Fields[i] = binary.LittleEndian.Uint32(data[12+4*i:])
	}
	return h, nil
}

// ErrChecksum is OpenSealed's error for a sealed file whose trailer is not
// the checksum of the bytes before it.
var ErrChecksum = errors.New("checksum mismatch")

// OpenSealed reads the header of a sealed file (as ReadHeader, with data
// required to hold the 4-byte trailer as well, else ErrForeign), then checks
// the trailer (ErrChecksum). It returns the header and the body: data
// without the trailer, header included.
func OpenSealed(data []byte, magic [8]byte, format uint32, fields int) (Header, []byte, error) {
	if len(data) < 12+4*fields+4 {
		return Header{}, nil, ErrForeign
	}
	h, err := ReadHeader(data, magic, format, fields)
	if err != nil {
		return Header{}, nil, err
	}
	body, ok := Body(data)
	if !ok {
		return Header{}, nil, ErrChecksum
	}
	return h, body, nil
}
