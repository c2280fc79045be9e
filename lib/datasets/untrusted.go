package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/inputerr"
)

// MaxIDBytes bounds an ID that becomes part of a file or folder name (a
// LoCoMo sample_id, a RealPersonaChat interlocutor ID): file systems refuse
// names over 255 bytes, and a source name adds the partner's ID and ".json".
const MaxIDBytes = 100

// idProblem says what is wrong with id as a plain name, one that becomes a
// file or folder name and a part of question IDs and qrels lines, or ""
// when nothing is: it must be non-empty valid UTF-8 of at most MaxIDBytes
// bytes, hold no white space, control character, '/' or '\', and not begin
// with '.' (so neither "." nor ".." nor a hidden name).
func idProblem(id string) string {
	switch {
	case id == "":
		return "it is empty"
	case !utf8.ValidString(id):
		return "it is not valid UTF-8"
	case len(id) > MaxIDBytes:
		return fmt.Sprintf("it has %d bytes, over %d", len(id), MaxIDBytes)
	case id[0] == '.':
		return "it begins with '.'"
	}
	for _, r := range id {
		switch {
		case unicode.IsSpace(r):
			return fmt.Sprintf("it holds white space (%U)", r)
		case unicode.IsControl(r) || r == utf8.RuneError:
			return fmt.Sprintf("it holds a control character (%U)", r)
		case r == '/' || r == '\\':
			return fmt.Sprintf("it holds %q", r)
		}
	}
	return ""
}

// checkID returns an *inputerr.Error at name:line when id is not a plain
// name (see idProblem); what says which field it is.
func checkID(name string, line int, what, id string) error {
	if p := idProblem(id); p != "" {
		return inputerr.Atf(name, line, "%s to be a plain name (no white space, control character, '/', '\\' or leading '.', at most %d bytes), got %q: %s", what, MaxIDBytes, id, p)
	}
	return nil
}

// nameClaims refuses two IDs that map to one file or folder name: the first
// holder of each name and the line where it was met.
type nameClaims struct {
	file  string
	owner map[string]string
	line  map[string]int
}

func newNameClaims(file string) *nameClaims {
	return &nameClaims{file: file, owner: map[string]string{}, line: map[string]int{}}
}

// claim records that id uses name, met at line; a name already used by
// another id is an error at line naming both.
func (c *nameClaims) claim(name, id string, line int) error {
	if prev, ok := c.owner[name]; ok && prev != id {
		return inputerr.Atf(c.file, line, "IDs that give distinct file names, got %q, which gives %q like %q on line %d", id, name, prev, c.line[name])
	}
	c.owner[name], c.line[name] = id, line
	return nil
}

// checkUTF8 returns an error at the line of data's first byte that is not
// valid UTF-8: json.Unmarshal would silently replace it with U+FFFD.
func checkUTF8(name string, data []byte) error {
	off := inputerr.InvalidUTF8(data)
	if off < 0 {
		return nil
	}
	e := inputerr.Atf(name, lineAt(data, int64(off)), "UTF-8 text, got byte 0x%02x", data[off])
	e.Offset = int64(off)
	return e
}

// checkTrailing returns an error when data holds anything but white space
// from off on (after the closing bracket of the document).
func checkTrailing(name string, data []byte, off int64) error {
	rest := data[off:]
	trimmed := bytes.TrimLeft(rest, " \t\r\n")
	if len(trimmed) == 0 {
		return nil
	}
	at := off + int64(len(rest)-len(trimmed))
	e := inputerr.Atf(name, lineAt(data, at), "nothing after the closing ] of the document, got %q", firstBytes(trimmed, 20))
	e.Offset = at
	return e
}

func firstBytes(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}

// valueIndex maps the JSON pointer (RFC 6901: "/qa/3/question") of every
// value of a document to the byte offset of the value's first byte in the
// file the document was cut from, so that an error names the line of the
// offending value rather than of the document's start.
type valueIndex struct {
	data []byte // the whole file
	at   map[string]int64
}

// duplicateKeyError is a key met twice in one JSON object, which
// encoding/json reads silently as the last value.
type duplicateKeyError struct {
	Key    string
	Offset int64 // in the whole file
}

func (e *duplicateKeyError) Error() string {
	return fmt.Sprintf("the key %q twice in one object", e.Key)
}

// indexValues indexes doc, found at byte base of data. doc must be one
// syntactically valid JSON value (as json.Decoder.Decode returns it); a key
// repeated in an object is a *duplicateKeyError.
func indexValues(data []byte, base int64, doc []byte) (*valueIndex, error) {
	ix := &valueIndex{data: data, at: map[string]int64{}}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	skip := func() int64 {
		off := dec.InputOffset()
		for off < int64(len(doc)) && strings.IndexByte(" \t\r\n:,", doc[off]) >= 0 {
			off++
		}
		return base + off
	}
	var walk func(path string) error
	walk = func(path string) error {
		ix.at[path] = skip()
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				keyAt := skip()
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if seen[k] {
					return &duplicateKeyError{Key: k, Offset: keyAt}
				}
				seen[k] = true
				if err := walk(path + "/" + pointerEscape(k)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(path + "/" + strconv.Itoa(i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	return ix, walk("")
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func pointerEscape(key string) string { return pointerEscaper.Replace(key) }

// line is the line of the value at the JSON pointer built from parts (each
// a key or an index), or of its nearest indexed ancestor.
func (ix *valueIndex) line(parts ...any) int {
	paths := []string{""}
	for _, p := range parts {
		var s string
		switch v := p.(type) {
		case string:
			s = pointerEscape(v)
		case int:
			s = strconv.Itoa(v)
		default:
			s = fmt.Sprint(v)
		}
		paths = append(paths, paths[len(paths)-1]+"/"+s)
	}
	for i := len(paths) - 1; i >= 0; i-- {
		if off, ok := ix.at[paths[i]]; ok {
			return lineAt(ix.data, off)
		}
	}
	return 1
}

// typeErrorLine is the line where json.Unmarshal of the value at byte base
// of data failed with err: a type error's own offset (just after the
// offending value), else base.
func typeErrorLine(data []byte, base int64, err error) int {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Offset > 0 {
		return lineAt(data, base+te.Offset)
	}
	return lineAt(data, base)
}
