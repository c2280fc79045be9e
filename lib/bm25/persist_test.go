package bm25_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

// TestWriteToRead checks that an index read back from WriteTo's bytes gives
// the same hits (IDs, scores, order) and explanations as the original, and
// that damaged or foreign input is an error.
func TestWriteToRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	words := []string{"a", "b", "c", "d", "e", "f", "g", "h", "猫", "犬"}
	docs := make([]bm25.Doc, 200)
	for i := range docs {
		var text []byte
		for range rng.IntN(12) {
			text = append(text, words[rng.IntN(len(words))]...)
			text = append(text, ' ')
		}
		// Few distinct StartAt values, so ties reach the ID tie-break.
		docs[i] = bm25.Doc{ID: fmt.Sprintf("c%03d", rng.IntN(1000)), StartAt: fmt.Sprintf("2024-01-0%d", rng.IntN(3)), Text: string(text)}
	}
	for _, tc := range []struct {
		name string
		docs []bm25.Doc
	}{{"empty", nil}, {"random", docs}} {
		t.Run(tc.name, func(t *testing.T) {
			orig := bm25.New(tc.docs, tokenizetest.Fields{})
			var buf bytes.Buffer
			if _, err := orig.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			read, err := bm25.Read(bytes.NewReader(buf.Bytes()), tokenizetest.Fields{})
			if err != nil {
				t.Fatal(err)
			}
			if read.Len() != orig.Len() || read.AvgDocLen() != orig.AvgDocLen() {
				t.Errorf("N, avgdl = %d, %v; want %d, %v", read.Len(), read.AvgDocLen(), orig.Len(), orig.AvgDocLen())
			}
			for _, q := range []string{"a", "a b", "猫 犬 a a", "zzz", "", "h g f e d c b a"} {
				for _, k := range []int{0, 1, 5} {
					if got, want := read.Search(q, k), orig.Search(q, k); !reflect.DeepEqual(got, want) {
						t.Errorf("Search(%q, %d) = %v, want %v", q, k, got, want)
					}
				}
				for _, d := range tc.docs[:min(3, len(tc.docs))] {
					if got, want := read.Explain(q, d.ID).String(), orig.Explain(q, d.ID).String(); got != want {
						t.Errorf("Explain(%q, %s) = %s, want %s", q, d.ID, got, want)
					}
				}
			}
			b := buf.Bytes()
			for name, bad := range map[string][]byte{
				"truncated":  b[:len(b)-1],
				"extra byte": append(bytes.Clone(b), 0),
				"not index":  []byte("hello, world"),
			} {
				if _, err := bm25.Read(bytes.NewReader(bad), tokenizetest.Fields{}); err == nil {
					t.Errorf("%s: Read gave no error", name)
				}
			}
			if _, err := bm25.Read(bytes.NewReader(b), other{}); err == nil {
				t.Error("Read with another tokenizer gave no error")
			}
			// Every single flipped bit is caught (by the checksum, or by
			// the checks when it hits the checksum itself).
			for i := 0; i < len(b); i += 1 + len(b)/97 {
				bad := bytes.Clone(b)
				bad[i] ^= 0x10
				if _, err := bm25.Open(bad, tokenizetest.Fields{}); err == nil {
					t.Errorf("byte %d flipped: Open gave no error", i)
				}
			}
			// A posting that names no document is refused even under a
			// matching checksum.
			if tc.docs != nil {
				bad := bytes.Clone(b)
				body := bad[:len(bad)-4]
				binary.LittleEndian.PutUint32(body[len(body)-8:], uint32(len(tc.docs)))
				binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.ChecksumIEEE(body))
				if _, err := bm25.Open(bad, tokenizetest.Fields{}); err == nil {
					t.Error("posting out of range: Open gave no error")
				}
			}
			// Bytes that are not 4-byte aligned are decoded instead of used
			// in place, with the same result.
			shifted := append(make([]byte, 1, len(b)+1), b...)[1:]
			opened, err := bm25.Open(shifted, tokenizetest.Fields{})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"a b", "猫 犬 a a"} {
				if got, want := opened.Search(q, 0), orig.Search(q, 0); !reflect.DeepEqual(got, want) {
					t.Errorf("unaligned: Search(%q) = %v, want %v", q, got, want)
				}
			}
			var again bytes.Buffer
			if _, err := opened.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), b) {
				t.Errorf("WriteTo of an opened index differs from the original's (err %v)", err)
			}
		})
	}
}

type other struct{ tokenizetest.Fields }

func (other) Name() string { return "other" }

// FuzzOpen checks that Open never panics, and that an index it accepts
// searches without panicking.
func FuzzOpen(f *testing.F) {
	var buf bytes.Buffer
	if _, err := bm25.New([]bm25.Doc{{ID: "c1", StartAt: "2024", Text: "a b a"}, {ID: "c2", Text: "b c"}}, tokenizetest.Fields{}).WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := bm25.Open(b, tokenizetest.Fields{})
		if err != nil {
			return
		}
		ix.Search("a b c", 0)
		ix.Explain("a b c", "c1")
	})
}
