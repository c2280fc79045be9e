package dense_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/dense"
)

// TestWriteToOpen checks that a matrix opened from WriteTo's bytes ranks
// exactly like the original (IDs, scores, order), in place and decoded from
// unaligned bytes, and that damaged or foreign input is an error.
func TestWriteToOpen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, dim = 120, 9
	ids := make([]string, n)
	data := make([]float32, n*dim)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%03d", rng.IntN(1000))
		if i%17 == 0 {
			continue // a zero row
		}
		for j := range dim {
			data[i*dim+j] = float32(rng.NormFloat64() * 1e3)
		}
	}
	for _, tc := range []struct {
		name string
		ids  []string
		data []float32
	}{{"empty", nil, nil}, {"random", ids, data}} {
		t.Run(tc.name, func(t *testing.T) {
			orig, err := dense.NewMatrix(tc.ids, dim, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := orig.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			b := buf.Bytes()
			shifted := append(make([]byte, 4, len(b)+4), b...)[4:]
			for name, in := range map[string][]byte{"in place": b, "unaligned": shifted} {
				m, err := dense.Open(in)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if m.Len() != orig.Len() || m.Dim() != orig.Dim() || !reflect.DeepEqual(m.IDs(), orig.IDs()) && orig.Len() > 0 {
					t.Errorf("%s: Len, Dim, IDs = %d, %d, %v", name, m.Len(), m.Dim(), m.IDs())
				}
				for range 5 {
					q := make([]float32, dim)
					for j := range q {
						q[j] = float32(rng.NormFloat64())
					}
					for _, k := range []int{0, 1, 10} {
						if got, want := m.Search(q, k), orig.Search(q, k); !reflect.DeepEqual(got, want) {
							t.Errorf("%s: Search(k=%d) = %v, want %v", name, k, got, want)
						}
					}
				}
				var again bytes.Buffer
				if _, err := m.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), b) {
					t.Errorf("%s: WriteTo of the opened matrix differs (err %v)", name, err)
				}
			}
			for i := 0; i < len(b); i += 1 + len(b)/89 {
				bad := bytes.Clone(b)
				bad[i] ^= 0x04
				if _, err := dense.Open(bad); err == nil {
					t.Errorf("byte %d flipped: Open gave no error", i)
				}
			}
			for name, bad := range map[string][]byte{
				"truncated":  b[:len(b)-1],
				"extra byte": append(bytes.Clone(b), 0),
				"not matrix": []byte("hello, world, hello, world, hello"),
			} {
				if _, err := dense.Open(bad); err == nil {
					t.Errorf("%s: Open gave no error", name)
				}
			}
		})
	}
}

// FuzzOpen checks that Open never panics, and that a matrix it accepts
// searches without panicking.
func FuzzOpen(f *testing.F) {
	m, err := dense.NewMatrix([]string{"a", "b"}, 2, []float32{1, 0, 0, 2})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := dense.Open(b)
		if err != nil {
			return
		}
		m.Search(make([]float32, m.Dim()), 1)
	})
}
