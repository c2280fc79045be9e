package lineexport

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// Byte-order marks of UTF-16.
var (
	utf16LEBOM = []byte{0xFF, 0xFE}
	utf16BEBOM = []byte{0xFE, 0xFF}
)

// textEncoding is one non-UTF-8 encoding an export may come in.
type textEncoding struct {
	name string
	enc  encoding.Encoding
}

// toUTF8 returns a .txt export's bytes as UTF-8. A file that starts, after
// an optional byte-order mark, with the `[LINE]` header in UTF-16 — every
// other byte 0x00: `[`,0,`L`,0,… (LE) or 0,`[`,0,`L`,… (BE) — is UTF-16 by
// that byte pattern, even when its bytes are also valid UTF-8 (an English
// export, whose zero bytes are valid UTF-8). Other valid UTF-8 is returned as
// is. Otherwise the encodings an export may have been saved in are tried in
// turn — UTF-16 named by its byte-order mark; else UTF-16LE, UTF-16BE and
// Shift_JIS (Windows-31J) — and the first that decodes to a text starting
// with the `[LINE]` header and free of replacement characters is used, with
// a Warning saying so. Bytes in none of them give the invalid-UTF-8
// InputError with a hint on converting the file.
func toUTF8(source string, data []byte) ([]byte, *Warning, error) {
	if enc, ok := utf16ByPattern(data); ok {
		if out, err := enc.enc.NewDecoder().Bytes(data); err == nil && plausibleExport(out) {
			return out, &Warning{File: source, Line: 1, Message: fmt.Sprintf("the file is %s, not UTF-8; read it converted to UTF-8", enc.name)}, nil
		}
	}
	if utf8.Valid(data) {
		return data, nil, nil
	}
	for _, enc := range candidateEncodings(data) {
		out, err := enc.enc.NewDecoder().Bytes(data)
		if err == nil && plausibleExport(out) {
			w := &Warning{File: source, Line: 1, Message: fmt.Sprintf("the file is %s, not UTF-8; read it converted to UTF-8", enc.name)}
			return out, w, nil
		}
	}
	err := checkUTF8(source, data)
	var ie *InputError
	if errors.As(err, &ie) {
		ie.Expected += "; LINE writes UTF-8, so the file was saved in another encoding: convert it, e.g. `iconv -f SHIFT_JIS -t UTF-8 FILE > FILE.utf8.txt` (or -f UTF-16)"
	}
	return nil, nil, err
}

// candidateEncodings lists the encodings to try for data, which is not
// valid UTF-8.
func candidateEncodings(data []byte) []textEncoding {
	switch {
	case bytes.HasPrefix(data, utf16LEBOM):
		return []textEncoding{{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)}}
	case bytes.HasPrefix(data, utf16BEBOM):
		return []textEncoding{{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)}}
	}
	return []textEncoding{
		{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)},
		{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)},
		{"Shift_JIS", japanese.ShiftJIS},
	}
}

// utf16ByPattern reports the UTF-16 byte order whose encoding of "[LINE]"
// data starts with, after an optional byte-order mark of that order.
func utf16ByPattern(data []byte) (textEncoding, bool) {
	le, be := []byte("[\x00L\x00I\x00N\x00E\x00]\x00"), []byte("\x00[\x00L\x00I\x00N\x00E\x00]")
	switch {
	case bytes.HasPrefix(bytes.TrimPrefix(data, utf16LEBOM), le):
		return textEncoding{"UTF-16LE", unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)}, true
	case bytes.HasPrefix(bytes.TrimPrefix(data, utf16BEBOM), be):
		return textEncoding{"UTF-16BE", unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)}, true
	}
	return textEncoding{}, false
}

// plausibleExport reports whether decoded text has no replacement character
// and starts with the `[LINE]` header, as an export converted from the right
// encoding does.
func plausibleExport(text []byte) bool {
	return !bytes.ContainsRune(text, utf8.RuneError) && bytes.HasPrefix(bytes.TrimPrefix(text, utf8BOM), []byte("[LINE]"))
}

// crToLF turns the line ends of a file that uses CR alone (classic Mac OS
// line ends: CR and no LF anywhere) into LF, with a Warning; any other file
// is returned as is.
func crToLF(source string, data []byte) ([]byte, *Warning) {
	if bytes.IndexByte(data, '\n') >= 0 || bytes.IndexByte(data, '\r') < 0 {
		return data, nil
	}
	return bytes.ReplaceAll(data, []byte{'\r'}, []byte{'\n'}), &Warning{File: source, Line: 1, Message: "line ends are CR alone (classic Mac OS); read them as line breaks"}
}
