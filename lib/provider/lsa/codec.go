package lsa

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/tokenize"
)

// magic starts every serialised model; the digit is the format version.
const magic = "linemem-lsa-1\n"

// MarshalBinary serialises the model: magic, options, document count,
// vocabulary with idf, Σ_k and V_k, little-endian.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(magic)
	putString(&b, m.opts.Tokenizer)
	for _, x := range []uint64{uint64(m.opts.Dimension), uint64(m.opts.VocabSize), m.opts.Seed, uint64(m.opts.Oversample),
		uint64(m.opts.PowerIters), uint64(m.opts.MinDF), uint64(m.docs), uint64(len(m.terms))} {
		binary.Write(&b, binary.LittleEndian, x)
	}
	for j, t := range m.terms {
		putString(&b, t)
		binary.Write(&b, binary.LittleEndian, m.idf[j])
	}
	binary.Write(&b, binary.LittleEndian, m.sigma)
	binary.Write(&b, binary.LittleEndian, m.v)
	return b.Bytes(), nil
}

// Unmarshal restores a model written by MarshalBinary.
func Unmarshal(data []byte) (*Model, error) {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return nil, errors.New("lsa: not a serialised model (bad header)")
	}
	fail := func(what string, err error) (*Model, error) {
		return nil, fmt.Errorf("lsa: corrupt model (%s): %v", what, err)
	}
	tokName, err := getString(r)
	if err != nil {
		return fail("tokenizer", err)
	}
	var h [8]uint64
	if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
		return fail("header", err)
	}
	const limit = 1 << 28
	for _, x := range h {
		if x > limit {
			return fail("header", fmt.Errorf("value %d out of range", x))
		}
	}
	m := &Model{opts: Options{Tokenizer: tokName, Dimension: int(h[0]), VocabSize: int(h[1]), Seed: h[2], Oversample: int(h[3]),
		PowerIters: int(h[4]), MinDF: int(h[5])}, docs: int(h[6])}
	nTerms, k := int(h[7]), m.opts.Dimension
	if uint64(nTerms)*uint64(k)*4 > uint64(len(data)) {
		return fail("size", fmt.Errorf("%d terms × %d dimensions exceed %d bytes", nTerms, k, len(data)))
	}
	m.terms, m.idf = make([]string, nTerms), make([]float64, nTerms)
	for j := range nTerms {
		if m.terms[j], err = getString(r); err != nil {
			return fail("vocabulary", err)
		}
		if err := binary.Read(r, binary.LittleEndian, &m.idf[j]); err != nil {
			return fail("idf", err)
		}
	}
	m.sigma, m.v = make([]float64, k), make([]float32, nTerms*k)
	if err := binary.Read(r, binary.LittleEndian, m.sigma); err != nil {
		return fail("singular values", err)
	}
	if err := binary.Read(r, binary.LittleEndian, m.v); err != nil {
		return fail("singular vectors", err)
	}
	if r.Len() != 0 {
		return fail("size", fmt.Errorf("%d trailing bytes", r.Len()))
	}
	for _, x := range m.v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fail("singular vectors", errors.New("non-finite value"))
		}
	}
	if m.tok, err = tokenize.New(tokName); err != nil {
		return nil, err
	}
	m.buildIndex()
	if err := m.setParams(); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Model) setParams() error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	m.params = "state_sha256=" + provider.ParamsHash(string(b))
	return nil
}

func putString(b *bytes.Buffer, s string) {
	binary.Write(b, binary.LittleEndian, uint32(len(s)))
	b.WriteString(s)
}

func getString(r *bytes.Reader) (string, error) {
	var n uint32
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return "", err
	}
	if int(n) > r.Len() {
		return "", fmt.Errorf("string of %d bytes, %d left", n, r.Len())
	}
	s := make([]byte, n)
	io.ReadFull(r, s)
	return string(s), nil
}
