package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"unsafe"
)

// ChunkVectors returns the vectors of (rep, model) ordered by chunk ID: ids[i]
// owns data[i*dim : (i+1)*dim]. A set with no vectors gives no ids and dim 0.
//
// The set is read from a matrix file in DerivedDir when one stamped with the
// current ContentKey(ContentVectors) is there, and otherwise from the
// database, writing that file for the next process (best effort: a folder
// that cannot be written only costs the speed-up). The file holds the same
// float32 bits as the database.
func (s *Store) ChunkVectors(rep, model string) (ids []string, dim int, data []float32, err error) {
	if err := ValidRep(rep); err != nil {
		return nil, 0, nil, err
	}
	dir := s.DerivedDir()
	if dir == "" {
		return chunkVectors(s.db, rep, model)
	}
	// One read transaction: the key and the rows are of the same snapshot.
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, nil, err
	}
	defer tx.Rollback()
	key, err := contentKey(tx, ContentVectors)
	if err != nil {
		return nil, 0, nil, err
	}
	path := vectorFilePath(dir, rep, model)
	if ids, dim, data, ok := readVectorFile(path, key, rep, model); ok {
		return ids, dim, data, nil
	}
	ids, dim, data, err = chunkVectors(tx, rep, model)
	if err != nil || len(ids) == 0 {
		return ids, dim, data, err
	}
	_ = writeVectorFile(path, key, rep, model, ids, dim, data)
	return ids, dim, data, nil
}

// vectorFileFormat versions the matrix file layout; a file of another
// version is rebuilt.
const vectorFileFormat = 1

var vectorFileMagic = [8]byte{'l', 'm', 'v', 'e', 'c', 't', 'o', 'r'}

// vectorFilePath names the matrix file of (rep, model); the model enters by
// hash, since a model name may hold any character.
func vectorFilePath(dir, rep, model string) string {
	h := sha256.Sum256([]byte(model))
	return filepath.Join(dir, fmt.Sprintf("vectors-%s-%s.f32", rep, hex.EncodeToString(h[:8])))
}

// The matrix file, all integers little-endian uint32:
//
//	magic "lmvector", format, then length-prefixed key, rep and model,
//	n, dim, n length-prefixed chunk IDs, zero padding to a multiple of 4,
//	then n·dim float32s (IEEE 754, little-endian), row-major.
func writeVectorFile(path, key, rep, model string, ids []string, dim int, data []float32) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 1<<20)
	var hdr bytes.Buffer
	hdr.Write(vectorFileMagic[:])
	u32 := func(v int) { binary.Write(&hdr, binary.LittleEndian, uint32(v)) }
	str := func(s string) { u32(len(s)); hdr.WriteString(s) }
	u32(vectorFileFormat)
	str(key)
	str(rep)
	str(model)
	u32(len(ids))
	u32(dim)
	for _, id := range ids {
		str(id)
	}
	for hdr.Len()%4 != 0 {
		hdr.WriteByte(0)
	}
	w.Write(hdr.Bytes())
	if nativeLittleEndian() {
		w.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), 4*len(data)))
	} else {
		w.Write(encodeVector(data))
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// readVectorFile reads the matrix file at path, the elements straight into
// the returned slice; ok is false when it is missing, of another format,
// stamped with another key or set, or damaged.
func readVectorFile(path, key, rep, model string) (ids []string, dim int, data []float32, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, nil, false
	}
	r := &headerReader{r: bufio.NewReaderSize(f, 1<<16), left: info.Size()}
	if !bytes.Equal(r.next(8), vectorFileMagic[:]) || r.u32() != vectorFileFormat ||
		r.str() != key || r.str() != rep || r.str() != model {
		return nil, 0, nil, false
	}
	n, d := r.u32(), r.u32()
	if r.err != nil || int64(n) > r.left || d <= 0 || int64(n)*int64(d)*4 > r.left {
		return nil, 0, nil, false
	}
	ids = make([]string, n)
	for i := range ids {
		ids[i] = r.str()
	}
	r.next(int((4 - (info.Size()-r.left)%4) % 4))
	if r.err != nil || r.left != 4*int64(n)*int64(d) {
		return nil, 0, nil, false
	}
	data = make([]float32, n*d)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), 4*len(data))
	if _, err := io.ReadFull(r.r, raw); err != nil {
		return nil, 0, nil, false
	}
	if !nativeLittleEndian() {
		decodeVector(data, bytes.Clone(raw))
	}
	return ids, d, data, true
}

func nativeLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// headerReader reads the matrix file's header; past the end it returns zero
// values and records the error. left counts the bytes not yet read.
type headerReader struct {
	r    *bufio.Reader
	left int64
	err  error
	buf  []byte
}

func (r *headerReader) next(n int) []byte {
	if r.err != nil || n < 0 || int64(n) > r.left {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	r.buf = slices.Grow(r.buf[:0], n)[:n]
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		r.err = err
		return nil
	}
	r.left -= int64(n)
	return r.buf
}

func (r *headerReader) u32() int {
	b := r.next(4)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b))
}

func (r *headerReader) str() string {
	n := r.u32()
	b := r.next(n)
	if b == nil {
		return ""
	}
	return string(b)
}
