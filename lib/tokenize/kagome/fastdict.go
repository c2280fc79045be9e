package kagome

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"

	"github.com/linemem/linemem/lib/internal/atomicfile"
)

// The fast-loading form of the IPA dictionary.
//
// ipa.Dict() inflates an 11 MB zip and decodes some 3.5 million feature
// strings: about half a second of CPU and 125 MB of heap in every process
// that analyses a word. What the analysis needs is smaller and flat: the
// trie (1.36 M pairs of int32), the connection matrix (1.73 M int16), the
// morphemes' costs (392 k triples of int16), the character classes and the
// unknown-word dictionary (small); and, for each morpheme, its part of
// speech, base form and reading. The first process that loads the zipped
// dictionary writes those parts, little-endian and 8-byte aligned, to one
// file in the user's cache folder (os.UserCacheDir()/linemem); later
// processes map the file into memory (mmap, read-only) and use its arrays
// in place, so they read only the pages their analyses touch, after one
// CRC-32 pass over the file.
//
// The file's name holds the dictionary module's version and checksum (from
// the binary's build information) and fastFormat, so another dictionary or
// layout never reads it; a file whose CRC-32 trailer does not match is
// ignored and written again. Without build information, on a big-endian
// machine, or when the folder cannot be written, the zipped dictionary is
// loaded as before.

// fastFormat is the layout version of the fast-loading file.
const fastFormat = 1

var fastMagic = [8]byte{'l', 'm', 'k', 'a', 'g', 'o', 'm', 'e'}

// features is what the analysis reads of a known morpheme: its part of
// speech (an index into pos) and its base form and reading, the strings
// text[off[2i]:off[2i+1]] and text[off[2i+1]:off[2i+2]].
type features struct {
	pos   [][]string // distinct part-of-speech paths
	posOf []uint16   // by morpheme ID
	off   []uint32   // 2n+1 offsets into text
	text  string
}

func (f *features) base(id int) string    { return f.text[f.off[2*id]:f.off[2*id+1]] }
func (f *features) reading(id int) string { return f.text[f.off[2*id+1]:f.off[2*id+2]] }

// fastDict is the dictionary the analysis runs on and the features of its
// known morphemes.
type fastDict struct {
	dict  *dict.Dict
	feats *features
}

// fastCachePath names the fast-loading file for the dictionary module the
// binary was built with; "" when the build information does not say.
func fastCachePath() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Path == "github.com/ikawaha/kagome-dict/ipa" && m.Sum != "" {
			dir, err := os.UserCacheDir()
			if err != nil {
				return ""
			}
			key := crc32.ChecksumIEEE([]byte(m.Version + " " + m.Sum))
			return filepath.Join(dir, "linemem", fmt.Sprintf("kagome-ipa-%s-%08x-f%d.bin", m.Version, key, fastFormat))
		}
	}
	return ""
}

// loadFast returns the dictionary from the fast-loading file, creating the
// file from the zipped dictionary when it is missing or damaged.
func loadFast() (*fastDict, error) {
	path := fastCachePath()
	if path != "" && littleEndian() {
		if data, err := readShared(path); err == nil {
			if fd, err := decodeFast(data); err == nil {
				return fd, nil
			}
		}
	}
	d := ipa.Dict()
	fd := &fastDict{dict: d, feats: featuresOf(d)}
	if path != "" && littleEndian() {
		writeFast(path, fd) // best effort: the next process loads the zip again
	}
	return fd, nil
}

// featuresOf reads the part of speech, base form and reading of every
// known morpheme of d.
func featuresOf(d *dict.Dict) *features {
	f := &features{posOf: make([]uint16, len(d.POSTable.POSs)), off: make([]uint32, 1, 2*len(d.POSTable.POSs)+1)}
	seen := map[string]uint16{}
	var text strings.Builder
	base, hasBase := d.ContentsMeta[dict.BaseFormIndex]
	reading, hasReading := d.ContentsMeta[dict.ReadingIndex]
	for id, pos := range d.POSTable.POSs {
		path := make([]string, len(pos))
		for i, p := range pos {
			path[i] = d.POSTable.NameList[p]
		}
		key := strings.Join(path, ",")
		n, ok := seen[key]
		if !ok {
			n = uint16(len(f.pos))
			seen[key] = n
			f.pos = append(f.pos, path)
		}
		f.posOf[id] = n
		feature := func(i int8, ok bool) string {
			j := int(i) - len(pos)
			if !ok || id >= len(d.Contents) || j < 0 || j >= len(d.Contents[id]) || d.Contents[id][j] == "*" {
				return ""
			}
			return d.Contents[id][j]
		}
		text.WriteString(feature(base, hasBase))
		f.off = append(f.off, uint32(text.Len()))
		text.WriteString(feature(reading, hasReading))
		f.off = append(f.off, uint32(text.Len()))
	}
	f.text = text.String()
	return f
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// The file: the magic, fastFormat (uint32) and the section count (uint32),
// then sections, each a uint64 byte length and its bytes padded to a
// multiple of 8, in this order: morphemes (LeftID, RightID, Weight int16
// each), the trie (Base, Check int32 pairs), the trie's duplicate counts
// (int32 key, value pairs), the connection matrix (Row, Col int64, then the
// int16 cells), the character definition and the unknown-word dictionary
// (kagome's own encodings), the part-of-speech paths (strings joined by
// "\n", levels by ","), the morphemes' part-of-speech indexes (uint16), the
// feature offsets (uint32) and the feature text; then the CRC-32 (IEEE) of
// everything before it, as a uint32 padded to 8 bytes.
const fastSections = 10

func writeFast(path string, fd *fastDict) error {
	d := fd.dict
	var sections [][]byte
	sections = append(sections, rawBytes(d.Morphs))
	sections = append(sections, rawBytes(d.Index.Da))
	dup := make([]int32, 0, 2*len(d.Index.Dup))
	for k, v := range d.Index.Dup {
		dup = append(dup, k, v)
	}
	sections = append(sections, rawBytes(dup))
	conn := binary.LittleEndian.AppendUint64(nil, uint64(d.Connection.Row))
	conn = binary.LittleEndian.AppendUint64(conn, uint64(d.Connection.Col))
	sections = append(sections, append(conn, rawBytes(d.Connection.Vec)...))
	var buf bytes.Buffer
	if _, err := (dict.CharDef{CharClass: d.CharClass, CharCategory: d.CharCategory, InvokeList: d.InvokeList, GroupList: d.GroupList}).WriteTo(&buf); err != nil {
		return err
	}
	sections = append(sections, bytes.Clone(buf.Bytes()))
	buf.Reset()
	if _, err := d.UnkDict.WriteTo(&buf); err != nil {
		return err
	}
	sections = append(sections, bytes.Clone(buf.Bytes()))
	paths := make([]string, len(fd.feats.pos))
	for i, p := range fd.feats.pos {
		paths[i] = strings.Join(p, ",")
	}
	sections = append(sections, []byte(strings.Join(paths, "\n")))
	sections = append(sections, rawBytes(fd.feats.posOf))
	sections = append(sections, rawBytes(fd.feats.off))
	sections = append(sections, []byte(fd.feats.text))

	out := append([]byte(nil), fastMagic[:]...)
	out = binary.LittleEndian.AppendUint32(out, fastFormat)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(sections)))
	for _, s := range sections {
		out = binary.LittleEndian.AppendUint64(out, uint64(len(s)))
		out = append(out, s...)
		out = append(out, make([]byte, (8-len(out)%8)%8)...)
	}
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	out = append(out, 0, 0, 0, 0)

	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(out)
		return err
	})
}

var errFastFile = errors.New("kagome: not a fast-loading dictionary file of this format")

// decodeFast reads the file written by writeFast. The large arrays and the
// feature text alias data, which must stay unchanged and mapped for as long
// as the dictionary is used (the whole process: it is loaded once).
func decodeFast(data []byte) (*fastDict, error) {
	if len(data) < 24 || !bytes.Equal(data[:8], fastMagic[:]) ||
		binary.LittleEndian.Uint32(data[8:]) != fastFormat || binary.LittleEndian.Uint32(data[12:]) != fastSections {
		return nil, errFastFile
	}
	body := len(data) - 8
	if crc32.ChecksumIEEE(data[:body]) != binary.LittleEndian.Uint32(data[body:]) {
		return nil, errFastFile
	}
	var sections [fastSections][]byte
	at := 16
	for i := range sections {
		if at+8 > body {
			return nil, errFastFile
		}
		n := binary.LittleEndian.Uint64(data[at:])
		at += 8
		if n > uint64(body-at) {
			return nil, errFastFile
		}
		sections[i] = data[at : at+int(n)]
		at += int(n)
		at += (8 - at%8) % 8
	}
	d := &dict.Dict{}
	var ok bool
	if d.Morphs, ok = asSlice[dict.Morph](sections[0]); !ok {
		return nil, errFastFile
	}
	if d.Index.Da, ok = asSlice[struct{ Base, Check int32 }](sections[1]); !ok {
		return nil, errFastFile
	}
	dup, ok := asSlice[int32](sections[2])
	if !ok || len(dup)%2 != 0 {
		return nil, errFastFile
	}
	d.Index.Dup = make(map[int32]int32, len(dup)/2)
	for i := 0; i < len(dup); i += 2 {
		d.Index.Dup[dup[i]] = dup[i+1]
	}
	conn := sections[3]
	if len(conn) < 16 {
		return nil, errFastFile
	}
	d.Connection.Row = int64(binary.LittleEndian.Uint64(conn))
	d.Connection.Col = int64(binary.LittleEndian.Uint64(conn[8:]))
	if d.Connection.Vec, ok = asSlice[int16](conn[16:]); !ok || int64(len(d.Connection.Vec)) != d.Connection.Row*d.Connection.Col {
		return nil, errFastFile
	}
	cd, err := dict.ReadCharDef(bytes.NewReader(sections[4]))
	if err != nil {
		return nil, errFastFile
	}
	d.CharClass, d.CharCategory, d.InvokeList, d.GroupList = cd.CharClass, cd.CharCategory, cd.InvokeList, cd.GroupList
	if d.UnkDict, err = dict.ReadUnkDic(bytes.NewReader(sections[5])); err != nil {
		return nil, errFastFile
	}
	f := &features{text: unsafe.String(unsafe.SliceData(sections[9]), len(sections[9]))}
	for _, p := range strings.Split(string(sections[6]), "\n") {
		f.pos = append(f.pos, strings.Split(p, ","))
	}
	if f.posOf, ok = asSlice[uint16](sections[7]); !ok || len(f.posOf) != len(d.Morphs) {
		return nil, errFastFile
	}
	if f.off, ok = asSlice[uint32](sections[8]); !ok || len(f.off) != 2*len(d.Morphs)+1 || f.off[len(f.off)-1] != uint32(len(f.text)) {
		return nil, errFastFile
	}
	for _, p := range f.posOf {
		if int(p) >= len(f.pos) {
			return nil, errFastFile
		}
	}
	for i := 1; i < len(f.off); i++ {
		if f.off[i] < f.off[i-1] {
			return nil, errFastFile
		}
	}
	return &fastDict{dict: d, feats: f}, nil
}

// rawBytes returns the bytes of s in memory (little-endian on the machines
// that write the file).
func rawBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0]))))
}

// asSlice views b as a []T in place; ok is false when b's length or
// alignment does not fit T.
func asSlice[T any](b []byte) ([]T, bool) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		return nil, false
	}
	if len(b) == 0 {
		return []T{}, true
	}
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size), true
}
