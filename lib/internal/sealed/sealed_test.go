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

var testLayout = sealed.Layout{Name: "test file", Magic: [8]byte{'l', 'm', 't', 'e', 's', 't', 'h', 'd'}, Format: 3, Fields: 2}

func TestHeader(t *testing.T) {
	b := testLayout.AppendHeader([]byte{}, 7, 1<<20)
	want := append(append([]byte("lmtesthd"), 3, 0, 0, 0, 7, 0, 0, 0), 0, 0, 0x10, 0)
	if !bytes.Equal(b, want) || len(b) != testLayout.Size() || testLayout.Size() != 12+4*2 {
		t.Fatalf("AppendHeader = % x (Size %d), want % x", b, testLayout.Size(), want)
	}
	got, err := testLayout.ReadHeader(append(b, 9))
	if err != nil || len(got) != 2 || got[0] != 7 || got[1] != 1<<20 {
		t.Errorf("ReadHeader = %v, %v", got, err)
	}
	other := testLayout
	other.Format = 4
	var ferr *sealed.FormatError
	if _, err := other.ReadHeader(b); !errors.As(err, &ferr) || ferr.Got != 3 || ferr.Want != 4 {
		t.Errorf("another format: %v, want a FormatError 3 vs 4", err)
	}
	for name, data := range map[string][]byte{"short": b[:testLayout.Size()-1], "other magic": append([]byte("lmother!"), b[8:]...)} {
		if _, err := testLayout.ReadHeader(data); !errors.Is(err, sealed.ErrForeign) {
			t.Errorf("%s: %v, want ErrForeign", name, err)
		}
	}
}

func TestAppendHeaderWrongFieldCount(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AppendHeader with one field of two did not panic")
		}
	}()
	testLayout.AppendHeader(nil, 1)
}

func TestOpenSealed(t *testing.T) {
	var buf bytes.Buffer
	w := sealed.NewWriter(&buf)
	w.Write(testLayout.AppendHeader(nil, 5, 6))
	w.Uint32(0x01020304)
	if _, err := w.Seal(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	f, body, err := testLayout.OpenSealed(data)
	if err != nil || f[0] != 5 || f[1] != 6 || !bytes.Equal(body[testLayout.Size():], []byte{4, 3, 2, 1}) {
		t.Errorf("OpenSealed = %v, % x, %v", f, body, err)
	}
	if _, _, err := testLayout.OpenSealed(data[:testLayout.Size()+3]); !errors.Is(err, sealed.ErrForeign) {
		t.Errorf("header without a whole trailer: %v, want ErrForeign", err)
	}
	damaged := bytes.Clone(data)
	damaged[len(damaged)-5] ^= 1
	if _, _, err := testLayout.OpenSealed(damaged); !errors.Is(err, sealed.ErrChecksum) {
		t.Errorf("damaged body: %v, want ErrChecksum", err)
	}
}
