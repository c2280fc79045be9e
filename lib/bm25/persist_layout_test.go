package bm25_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
)

// layoutDocs: N = 2, document strings "c1"+"2024" and "c22"+"" (9 bytes, an
// empty StartAt among them), terms a, b, c (3 bytes), postings a:[0],
// b:[0,1], c:[1] (P = 4).
var layoutDocs = []bm25.Doc{{ID: "c1", StartAt: "2024", Text: "a b a"}, {ID: "c22", Text: "b c"}}

func up4(n int) int { return (n + 3) / 4 * 4 }

func layoutIndex(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := bm25.New(layoutDocs, tokenizetest.Fields{}).WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// reseal writes the CRC-32 of everything before the last 4 bytes into them.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

// TestWriteToLayout checks the file's size against the layout in WriteTo's
// doc, every run of bytes padded to a multiple of 4, and that it opens to
// the same search results.
func TestWriteToLayout(t *testing.T) {
	b := layoutIndex(t)
	const n, terms, postings = 2, 3, 4
	tok := len(tokenizetest.Fields{}.Name())
	want := 8 + 5*4 + up4(tok) + 4*n + 4*(2*n+1) + 4*(terms+1) + 4*(terms+1) + up4(9) + up4(3) + 8*postings + 4
	if len(b) != want {
		t.Errorf("size %d, want %d", len(b), want)
	}
	ix, err := bm25.Open(b, tokenizetest.Fields{})
	if err != nil {
		t.Fatal(err)
	}
	orig := bm25.New(layoutDocs, tokenizetest.Fields{})
	for _, q := range []string{"a", "b", "c", "a c"} {
		if got, want := ix.Search(q, 0), orig.Search(q, 0); !reflect.DeepEqual(got, want) {
			t.Errorf("Search(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestOpenRefusesDamageUnderAGoodChecksum edits one value of a valid file
// and reseals it, so that only Open's checks can catch it.
func TestOpenRefusesDamageUnderAGoodChecksum(t *testing.T) {
	tok := len(tokenizetest.Fields{}.Name())
	lengthsAt := 8 + 5*4 + up4(tok)
	size := len(layoutIndex(t))
	postAt := size - 4 - 8*4 // postings: a:(0,2) b:(0,1) b:(1,1) c:(1,1)
	termsAt := postAt - up4(3)
	for _, c := range []struct {
		name string
		edit func(b []byte)
		ok   bool
	}{
		{"a length of 2³¹ − 1 is an int32", func(b []byte) { binary.LittleEndian.PutUint32(b[lengthsAt:], 1<<31-1) }, true},
		{"a length of 2³¹ is not", func(b []byte) { binary.LittleEndian.PutUint32(b[lengthsAt:], 1<<31) }, false},
		{"a length of 2³¹ + 1 is not", func(b []byte) { binary.LittleEndian.PutUint32(b[lengthsAt:], 1<<31+1) }, false},
		{"a term repeated", func(b []byte) { b[termsAt+1] = 'a' }, false},
		{"a document twice in one term's postings", func(b []byte) { binary.LittleEndian.PutUint32(b[postAt+16:], 0) }, false},
		{"tf 0", func(b []byte) { binary.LittleEndian.PutUint32(b[postAt+4:], 0) }, false},
		{"unchanged", func([]byte) {}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := layoutIndex(t)
			c.edit(b)
			_, err := bm25.Open(reseal(b), tokenizetest.Fields{})
			if (err == nil) != c.ok {
				t.Errorf("Open: %v, want ok %v", err, c.ok)
			}
		})
	}
}
