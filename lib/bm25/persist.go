package bm25

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/linemem/linemem/lib/tokenize"
)

// formatVersion versions the layout WriteTo writes; Read refuses any other.
const formatVersion = 1

var magic = [8]byte{'l', 'm', 'b', 'm', '2', '5', 'i', 'x'}

// WriteTo writes the index in a load-ready binary form that Read turns back
// into an index scoring and ordering exactly like this one: the tokenizer
// name, every document's ID, StartAt and |d|, and each term's postings in
// term-ID order. Document texts are not kept (nothing reads them after
// indexing). All integers are little-endian uint32:
//
//	magic "lmbm25ix", format, tokenizer, N, N × (ID, StartAt, |d|),
//	T, T × (term, P, P × (doc, tf))
//
// where a string is its byte length followed by its bytes.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	var buf [4]byte
	u32 := func(v int) {
		binary.LittleEndian.PutUint32(buf[:], uint32(v))
		m, _ := bw.Write(buf[:])
		n += int64(m)
	}
	str := func(s string) {
		u32(len(s))
		m, _ := bw.WriteString(s)
		n += int64(m)
	}
	m, _ := bw.Write(magic[:])
	n += int64(m)
	u32(formatVersion)
	str(ix.tok.Name())
	u32(len(ix.docs))
	for d, doc := range ix.docs {
		str(doc.ID)
		str(doc.StartAt)
		u32(int(ix.lengths[d]))
	}
	terms := make([]string, len(ix.postings))
	for t, id := range ix.terms {
		terms[id] = t
	}
	u32(len(terms))
	for id, t := range terms {
		str(t)
		u32(len(ix.postings[id]))
		for _, p := range ix.postings[id] {
			u32(int(p.doc))
			u32(int(p.tf))
		}
	}
	return n, bw.Flush()
}

// Read reads an index written by WriteTo; tok must be the tokenizer it was
// built with (its name is checked). Damaged or foreign input is an error.
func Read(r io.Reader, tok tokenize.Tokenizer) (*Index, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	d := decoder{b: b}
	if string(d.next(len(magic))) != string(magic[:]) {
		return nil, errors.New("bm25: not an index file")
	}
	if v := d.u32(); v != formatVersion {
		return nil, fmt.Errorf("bm25: index format %d, expected %d", v, formatVersion)
	}
	if name := d.str(); name != tok.Name() {
		return nil, fmt.Errorf("bm25: index built with tokenizer %q, expected %q", name, tok.Name())
	}
	n := d.count(12)
	ix := &Index{tok: tok, docs: make([]Doc, n), lengths: make([]int32, n), lenNorm: make([]float64, n)}
	total := 0
	for i := range n {
		ix.docs[i].ID = d.str()
		ix.docs[i].StartAt = d.str()
		ix.lengths[i] = int32(d.u32())
		total += int(ix.lengths[i])
	}
	t := d.count(8)
	ix.terms = make(map[string]int32, t)
	ix.postings = make([][]posting, t)
	for id := range t {
		ix.terms[d.str()] = int32(id)
		p := d.count(8)
		list := make([]posting, p)
		for j := range list {
			list[j] = posting{doc: int32(d.u32()), tf: int32(d.u32())}
			if int(list[j].doc) >= n || list[j].tf <= 0 {
				d.fail()
			}
		}
		ix.postings[id] = list
	}
	if d.err != nil || d.i != len(b) || len(ix.terms) != t {
		return nil, errors.New("bm25: damaged index file")
	}
	if n > 0 {
		ix.avgdl = float64(total) / float64(n)
	}
	ix.setLenNorm()
	return ix, nil
}

// decoder reads WriteTo's layout; past the end or on a bad count it returns
// zero values and records the error.
type decoder struct {
	b   []byte
	i   int
	err error
}

func (d *decoder) fail() { d.err = io.ErrUnexpectedEOF }

func (d *decoder) next(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b)-d.i {
		d.fail()
		return nil
	}
	out := d.b[d.i : d.i+n]
	d.i += n
	return out
}

func (d *decoder) u32() int {
	b := d.next(4)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b))
}

// count reads a count of items of at least minSize bytes each, refusing one
// that the rest of the input cannot hold.
func (d *decoder) count(minSize int) int {
	c := d.u32()
	if c > (len(d.b)-d.i)/minSize {
		d.fail()
		return 0
	}
	return c
}

func (d *decoder) str() string {
	return string(d.next(d.u32()))
}
