package dense

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"unsafe"

	"github.com/linemem/linemem/lib/internal/sealed"
)

// WriteTo writes the matrix in a load-ready form that Open uses in place:
// the rows as they are kept for search (as given or scaled by a power of
// two, see the package doc's Range) and their inverse norms, so opening needs no pass over the
// vectors. Integers are little-endian uint32, floats little-endian IEEE 754:
//
//	magic "lmdensem", format, n, dim, S = the IDs' total length
//	n+1 ID offsets: ID_i = ids[o[i]:o[i+1]], then the S ID bytes
//	zero padding to a multiple of 8 bytes from the start
//	n float64 inverse norms, then n·dim float32 rows, row-major
//	CRC-32 (IEEE) of every byte before it
func (m *Matrix) WriteTo(w io.Writer) (int64, error) {
	bw := sealed.NewWriter(w)
	var buf [8]byte
	idBytes := 0
	for _, id := range m.ids {
		idBytes += len(id)
	}
	bw.Write(layout.AppendHeader(nil, uint32(len(m.ids)), uint32(m.dim), uint32(idBytes)))
	off := 0
	bw.Uint32(uint32(off))
	for _, id := range m.ids {
		off += len(id)
		bw.Uint32(uint32(off))
	}
	for _, id := range m.ids {
		bw.WriteString(id)
	}
	bw.Write(make([]byte, pad8(layout.Size()+4*(len(m.ids)+1)+idBytes)))
	if nativeLittleEndian && len(m.ids) > 0 {
		bw.Write(unsafe.Slice((*byte)(unsafe.Pointer(&m.inv[0])), 8*len(m.inv)))
		bw.Write(unsafe.Slice((*byte)(unsafe.Pointer(&m.rows[0])), 4*len(m.rows)))
	} else {
		for _, v := range m.inv {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			bw.Write(buf[:])
		}
		for _, v := range m.rows {
			binary.LittleEndian.PutUint32(buf[:4], math.Float32bits(v))
			bw.Write(buf[:4])
		}
	}
	return bw.Seal()
}

// layout is the matrix file's header: magic, format, then n, dim and the ID
// bytes' length. Its format versions the layout WriteTo writes; Open refuses
// any other.
var layout = sealed.Layout{Name: "dense matrix", Magic: [8]byte{'l', 'm', 'd', 'e', 'n', 's', 'e', 'm'}, Format: 1, Fields: 3}

// pad8 is the number of zero bytes that bring n to a multiple of 8.
func pad8(n int) int { return (8 - n%8) % 8 }

// Open returns the matrix whose WriteTo bytes are data, using the rows and
// inverse norms in place (no copy, no pass over them beyond the checksum)
// when the machine is little-endian and data is 8-byte aligned, as a memory
// mapping or a fresh allocation is; otherwise they are decoded. data must
// stay unchanged and readable while the matrix is in use. Damaged input (a
// checksum mismatch, counts or offsets out of range, an inverse norm that is
// negative or not finite) or foreign input is an error.
func Open(data []byte) (*Matrix, error) {
	f, body, err := layout.OpenSealed(data)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	n, dim, idBytes := int64(f[0]), int64(f[1]), int64(f[2])
	offsAt := int64(layout.Size())
	idsAt := offsAt + 4*(n+1)
	invAt := idsAt + idBytes
	invAt += int64(pad8(int(invAt % 8)))
	rowsAt := invAt + 8*n
	if dim <= 0 || rowsAt+4*n*dim != int64(len(body)) {
		return nil, errors.New("dense: damaged matrix file")
	}
	ids := make([]string, n)
	all := string(body[idsAt : idsAt+idBytes])
	prev := uint32(0)
	for i := range ids {
		a, b := le.Uint32(body[offsAt+4*int64(i):]), le.Uint32(body[offsAt+4*int64(i+1):])
		if a != prev || b < a || int64(b) > idBytes {
			return nil, errors.New("dense: damaged matrix file (IDs)")
		}
		ids[i], prev = all[a:b], b
	}
	if int64(prev) != idBytes {
		return nil, errors.New("dense: damaged matrix file (IDs)")
	}
	m := &Matrix{ids: ids, dim: int(dim)}
	aligned := nativeLittleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(body)))%8 == 0
	if n == 0 {
		m.rows, m.inv = []float32{}, []float64{}
	} else if aligned {
		m.inv = unsafe.Slice((*float64)(unsafe.Pointer(&body[invAt])), n)
		m.rows = unsafe.Slice((*float32)(unsafe.Pointer(&body[rowsAt])), n*dim)
	} else {
		m.inv = make([]float64, n)
		for i := range m.inv {
			m.inv[i] = math.Float64frombits(le.Uint64(body[invAt+8*int64(i):]))
		}
		m.rows = make([]float32, n*dim)
		for i := range m.rows {
			m.rows[i] = math.Float32frombits(le.Uint32(body[rowsAt+4*int64(i):]))
		}
	}
	for _, v := range m.inv {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, errors.New("dense: damaged matrix file (norms)")
		}
	}
	return m, nil
}

// nativeLittleEndian is true on little-endian machines, where the file's
// numbers are used in place.
var nativeLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
