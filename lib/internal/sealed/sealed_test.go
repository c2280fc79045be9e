package sealed_test

import (
	"bytes"
	"encoding/binary"
	"errors"
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

func TestHeader(t *testing.T) {
	magic := [8]byte{'l', 'm', 't', 'e', 's', 't', 'h', 'd'}
	h := sealed.Header{Magic: magic, Format: 3, Fields: []uint32{7, 1 << 20}}
	b := h.Append([]byte{})
	want := append(append([]byte("lmtesthd"), 3, 0, 0, 0, 7, 0, 0, 0), 0, 0, 0x10, 0)
	if !bytes.Equal(b, want) || len(b) != h.Size() || h.Size() != 12+4*2 {
		t.Fatalf("Append = % x (Size %d), want % x", b, h.Size(), want)
	}
	got, err := sealed.ReadHeader(append(b, 9), magic, 3, 2)
	if err != nil || got.Fields[0] != 7 || got.Fields[1] != 1<<20 {
		t.Errorf("ReadHeader = %+v, %v", got, err)
	}
	var ferr *sealed.FormatError
	if _, err := sealed.ReadHeader(b, magic, 4, 2); !errors.As(err, &ferr) || ferr.Got != 3 || ferr.Want != 4 {
		t.Errorf("another format: %v, want a FormatError 3 vs 4", err)
	}
	for name, data := range map[string][]byte{"short": b[:h.Size()-1], "other magic": append([]byte("lmother!"), b[8:]...)} {
		if _, err := sealed.ReadHeader(data, magic, 3, 2); !errors.Is(err, sealed.ErrForeign) {
			t.Errorf("%s: %v, want ErrForeign", name, err)
		}
	}
}

func TestOpenSealed(t *testing.T) {
	magic := [8]byte{'l', 'm', 't', 'e', 's', 't', 'h', 'd'}
	var buf bytes.Buffer
	w := sealed.NewWriter(&buf)
	w.Write(sealed.Header{Magic: magic, Format: 1, Fields: []uint32{5}}.Append(nil))
	w.WriteString("body")
	if _, err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	h, body, err := sealed.OpenSealed(data, magic, 1, 1)
	if err != nil || h.Fields[0] != 5 || string(body[h.Size():]) != "body" {
		t.Errorf("OpenSealed = %+v, %q, %v", h, body, err)
	}
	if _, _, err := sealed.OpenSealed(data[:16+3], magic, 1, 1); !errors.Is(err, sealed.ErrForeign) {
		t.Errorf("header without a trailer: %v, want ErrForeign", err)
	}
	damaged := bytes.Clone(data)
	damaged[len(damaged)-5] ^= 1
	if _, _, err := sealed.OpenSealed(damaged, magic, 1, 1); !errors.Is(err, sealed.ErrChecksum) {
		t.Errorf("damaged body: %v, want ErrChecksum", err)
	}
}
