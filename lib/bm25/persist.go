package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/linemem/linemem/lib/internal/sealed"
	"github.com/linemem/linemem/lib/tokenize"
)

// layout is the index file's header: magic, format, then N, T, P and the
// tokenizer name's length. Its format versions the layout WriteTo writes;
// Read and Open refuse any other.
var layout = sealed.Layout{Name: "bm25 index", Magic: [8]byte{'l', 'm', 'b', 'm', '2', '5', 'i', 'x'}, Format: 2, Fields: 4}

// WriteTo writes the index in a load-ready binary form that Open searches in
// place, scoring and ordering exactly like this index: the tokenizer name,
// every document's ID, StartAt and |d|, and the term dictionary in byte order
// with each term's postings. Document texts are not kept (nothing reads them
// after indexing). All integers are little-endian uint32 and every section
// starts at a multiple of 4 bytes:
//
//	magic "lmbm25ix", format, N, T, P, the tokenizer name's length and bytes
//	N × |d|
//	2N+1 document string offsets: ID_i = S[o[2i]:o[2i+1]], StartAt_i = S[o[2i+1]:o[2i+2]]
//	T+1 term offsets into the term bytes; terms in byte order, distinct
//	T+1 posting offsets: term t's postings are P[p[t]:p[t+1]], none empty
//	the document string bytes S, then the term bytes
//	P postings (document, tf), ascending document within each term
//	CRC-32 (IEEE) of every byte before it
//
// where each run of bytes is padded with zeros to a multiple of 4.
func (ix *Index) WriteTo(w io.Writer) (int64, error) {
	bw := sealed.NewWriter(w)
	pad := func(n int) { bw.Write(make([]byte, padding(n))) }

	terms := ix.sortedTerms()
	nPost := 0
	for _, t := range terms {
		nPost += len(ix.postingsOf(t))
	}
	tok := ix.tok.Name()
	bw.Write(layout.AppendHeader(nil, uint32(len(ix.docs)), uint32(len(terms)), uint32(nPost), uint32(len(tok))))
	bw.WriteString(tok)
	pad(len(tok))
	for _, l := range ix.lengths {
		bw.Uint32(uint32(l))
	}
	off := 0
	bw.Uint32(uint32(off))
	for _, d := range ix.docs {
		off += len(d.ID)
		bw.Uint32(uint32(off))
		off += len(d.StartAt)
		bw.Uint32(uint32(off))
	}
	docBytes := off
	off = 0
	bw.Uint32(uint32(off))
	for _, t := range terms {
		off += len(t)
		bw.Uint32(uint32(off))
	}
	termBytes := off
	off = 0
	bw.Uint32(uint32(off))
	for _, t := range terms {
		off += len(ix.postingsOf(t))
		bw.Uint32(uint32(off))
	}
	for _, d := range ix.docs {
		bw.WriteString(d.ID)
		bw.WriteString(d.StartAt)
	}
	pad(docBytes)
	for _, t := range terms {
		bw.WriteString(t)
	}
	pad(termBytes)
	for _, t := range terms {
		for _, p := range ix.postingsOf(t) {
			bw.Uint32(uint32(p.doc))
			bw.Uint32(uint32(p.tf))
		}
	}
	return bw.Seal()
}

// padding is the number of zero bytes that bring n to a multiple of 4.
func padding(n int) int { return (4 - n%4) % 4 }

// sortedTerms returns the index terms in byte order.
func (ix *Index) sortedTerms() []string {
	if ix.dict != nil {
		out := make([]string, ix.dict.len())
		for i := range out {
			out[i] = strings.Clone(ix.dict.term(i))
		}
		return out
	}
	out := make([]string, 0, len(ix.terms))
	for t := range ix.terms {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Read reads an index written by WriteTo into memory; see Open.
func Read(r io.Reader, tok tokenize.Tokenizer) (*Index, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return Open(b, tok)
}

// Open returns the index whose WriteTo bytes are data, searching them in
// place: the postings and the term dictionary are not copied, so opening costs
// one pass over data (the checksum and the checks below) and memory for the
// documents only, and data may be a read-only memory mapping. data must stay
// unchanged and readable while the index is in use. tok must be the tokenizer
// the index was built with (its name is checked). Input that is damaged (a
// checksum mismatch, a count or offset out of range, terms out of order, a
// posting naming no document or with tf ≤ 0) or foreign is an error, so an
// index that opens never panics or reads outside data.
func Open(data []byte, tok tokenize.Tokenizer) (*Index, error) {
	return OpenWith(data, tok, SpecParams())
}

// OpenWith is Open scored with params (a file holds no parameters: the
// length norms are computed on opening). It panics when params.K1 < 0 or
// params.B is outside [0, 1].
func OpenWith(data []byte, tok tokenize.Tokenizer, params Params) (*Index, error) {
	params.check()
	f, body, err := layout.OpenSealed(data)
	if err != nil {
		return nil, err
	}
	n, t, p, tl := int(f[0]), int(f[1]), int(f[2]), int(f[3])
	// Each count is below 2³² and len(body) below 2⁶³, so these sums of a
	// few products cannot overflow int64.
	at := int64(layout.Size()) + int64(tl) + int64(padding(tl))
	if at > int64(len(body)) {
		return nil, errors.New("bm25: damaged index file")
	}
	if name := string(body[layout.Size() : layout.Size()+tl]); name != tok.Name() {
		return nil, fmt.Errorf("bm25: index built with tokenizer %q, expected %q", name, tok.Name())
	}
	sections := []int64{int64(n), 2*int64(n) + 1, int64(t) + 1, int64(t) + 1}
	starts := make([]int64, len(sections))
	for i, c := range sections {
		starts[i] = at
		at += 4 * c
	}
	if at > int64(len(body)) {
		return nil, errors.New("bm25: damaged index file")
	}
	lengths := u32s(body, starts[0], n)
	docOff := u32s(body, starts[1], 2*n+1)
	termOff := u32s(body, starts[2], t+1)
	postOff := u32s(body, starts[3], t+1)
	docLen, termLen := int64(docOff[2*n]), int64(termOff[t])
	docAt := at
	termAt := docAt + docLen + int64(padding(int(docLen%4)))
	postAt := termAt + termLen + int64(padding(int(termLen%4)))
	if postAt+8*int64(p) != int64(len(body)) || int64(postOff[t]) != int64(p) ||
		docOff[0] != 0 || termOff[0] != 0 || postOff[0] != 0 {
		return nil, errors.New("bm25: damaged index file")
	}
	if !ascending(docOff, false) || !ascending(termOff, true) || !ascending(postOff, true) {
		return nil, errors.New("bm25: damaged index file (offsets)")
	}
	ix := &Index{tok: tok, params: params, docs: make([]Doc, n), lengths: make([]int32, n), lenNorm: make([]float64, n)}
	strs := string(body[docAt : docAt+docLen])
	total := 0
	for i := range n {
		ix.docs[i] = Doc{ID: strs[docOff[2*i]:docOff[2*i+1]], StartAt: strs[docOff[2*i+1]:docOff[2*i+2]]}
		if lengths[i] > 1<<31-1 {
			return nil, errors.New("bm25: damaged index file (length)")
		}
		ix.lengths[i] = int32(lengths[i])
		total += int(lengths[i])
	}
	d := &dict{termOff: termOff, postOff: postOff, post: postingsAt(body, postAt, p)}
	if termLen > 0 {
		d.terms = unsafe.String(&body[termAt], termLen)
	}
	for i := 1; i < t; i++ {
		if d.term(i-1) >= d.term(i) {
			return nil, errors.New("bm25: damaged index file (term order)")
		}
	}
	for i := range t {
		list := d.post[postOff[i]:postOff[i+1]]
		prev := int32(-1)
		for _, q := range list {
			if q.doc <= prev || int(q.doc) >= n || q.tf <= 0 {
				return nil, errors.New("bm25: damaged index file (postings)")
			}
			prev = q.doc
		}
	}
	ix.dict = d
	if n > 0 {
		ix.avgdl = float64(total) / float64(n)
	}
	ix.setLenNorm()
	return ix, nil
}

// ascending reports whether offs never decrease (strictly increase when
// strict).
func ascending(offs []uint32, strict bool) bool {
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] || strict && offs[i] == offs[i-1] {
			return false
		}
	}
	return true
}

// dict is the term dictionary of an opened index: terms in byte order over
// the file's bytes, each with its postings, found by binary search.
type dict struct {
	terms   string   // every term's bytes, concatenated
	termOff []uint32 // term i is terms[termOff[i]:termOff[i+1]]
	postOff []uint32 // term i's postings are post[postOff[i]:postOff[i+1]]
	post    []posting
}

func (d *dict) len() int { return len(d.termOff) - 1 }

func (d *dict) term(i int) string { return d.terms[d.termOff[i]:d.termOff[i+1]] }

// lookup returns term's postings; nil when the index does not hold it.
func (d *dict) lookup(term string) []posting {
	i := sort.Search(d.len(), func(i int) bool { return d.term(i) >= term })
	if i == d.len() || d.term(i) != term {
		return nil
	}
	return d.post[d.postOff[i]:d.postOff[i+1]]
}

// nativeLittleEndian is true on little-endian machines, where the file's
// integers are used in place.
var nativeLittleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// u32s returns the count little-endian uint32s at b[at:], in place when the
// machine is little-endian and they are 4-byte aligned, else decoded.
func u32s(b []byte, at int64, count int) []uint32 {
	if count == 0 {
		return []uint32{}
	}
	raw := b[at : at+4*int64(count)]
	if nativeLittleEndian && uintptr(unsafe.Pointer(&raw[0]))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(&raw[0])), count)
	}
	out := make([]uint32, count)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

// postingsAt is u32s for the count (document, tf) pairs at b[at:].
func postingsAt(b []byte, at int64, count int) []posting {
	if count == 0 {
		return nil
	}
	raw := b[at : at+8*int64(count)]
	if nativeLittleEndian && uintptr(unsafe.Pointer(&raw[0]))%4 == 0 {
		return unsafe.Slice((*posting)(unsafe.Pointer(&raw[0])), count)
	}
	out := make([]posting, count)
	for i := range out {
		out[i] = posting{doc: int32(binary.LittleEndian.Uint32(raw[8*i:])), tf: int32(binary.LittleEndian.Uint32(raw[8*i+4:]))}
	}
	return out
}
