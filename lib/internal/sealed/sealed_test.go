package sealed_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/linemem/linemem/lib/internal/sealed"
)

func TestSealAndBody(t *testing.T) {
	for _, payload := range []string{"", "a", "linemem derived index", string(bytes.Repeat([]byte{7}, 3<<20))} {
		var buf bytes.Buffer
		w := sealed.NewWriter(&buf)
		w.WriteString(payload)
		n, err := w.Seal()
		if err != nil {
			t.Fatal(err)
		}
		want := binary.LittleEndian.AppendUint32([]byte(payload), crc32.ChecksumIEEE([]byte(payload)))
		if n != int64(len(payload)+4) || !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("payload of %d bytes: wrote %d bytes, want %d = payload + CRC-32", len(payload), n, len(payload)+4)
		}
		body, ok := sealed.Body(buf.Bytes())
		if !ok || string(body) != payload {
			t.Fatalf("payload of %d bytes: Body = %d bytes, ok %v", len(payload), len(body), ok)
		}
		if len(payload) > 0 {
			damaged := bytes.Clone(buf.Bytes())
			damaged[len(payload)/2] ^= 1
			if _, ok := sealed.Body(damaged); ok {
				t.Errorf("payload of %d bytes: a flipped bit passes the check", len(payload))
			}
		}
	}
	for _, short := range [][]byte{nil, {1, 2, 3}} {
		if _, ok := sealed.Body(short); ok {
			t.Errorf("Body(%v) ok for input shorter than the trailer", short)
		}
	}
}

func ExampleBody() {
	var buf bytes.Buffer
	w := sealed.NewWriter(&buf)
	w.WriteString("postings")
	w.Seal()
	body, ok := sealed.Body(buf.Bytes())
	fmt.Println(buf.Len(), string(body), ok)
	// Output: 12 postings true
}
