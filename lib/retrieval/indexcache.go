package retrieval

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/dense"
	"github.com/linemem/linemem/lib/internal/atomicfile"
	"github.com/linemem/linemem/lib/internal/sealed"
	"github.com/linemem/linemem/lib/tokenize"
)

// Derived files. A Builder with an index folder keeps there, between
// processes, one BM25 index per (representation, tokenizer) and one vector
// matrix per (representation, model):
//
//	bm25-{rep}-{tokenizer}.idx     lib/bm25's WriteTo layout
//	matrix-{rep}-{model hash}.mat  lib/dense's WriteTo layout
//
// each behind a header of named keys that say what it was built from. A file
// is used only when a key matches the current content; a file that is
// missing, stale, of another format or damaged (both payload layouts end in
// a checksum) is rebuilt from the corpus and written again, atomically. The
// files are memory-mapped, so a process reads only what it searches. They
// are caches: deleting them loses nothing.
//
// Each file has a lock file beside it ({file}.lock, empty), held while a
// process opens, builds or writes the file (lockDerived): two processes
// that need the same missing index at once build it once, the second
// waiting for the first and then opening its file.
//
// BM25 keys: "content", the store's ContentKey of the chunks (and, for the
// summary and embedding_text representations, the summaries), which a fresh
// process reads without reading the corpus; and "texts", a SHA-256 of every
// document's ID, StartAt and text (bm25Key), which a Builder over a corpus
// held in memory computes. Matrix keys: "vectors", the ContentKey of the
// vectors, and "covers", the ContentKey of the chunks against which the
// vectors were found to cover the corpus exactly (one vector per chunk).
//
// Neither key sees the code: derivedFormat must be raised whenever a
// representation or a tokenizer changes the texts or tokens of an index
// (TestDerivedFormatFollowsTheTokenizers holds the tokenizers to it).
const derivedFormat = 6

// derivedLayout is the derived file's header: magic, format, the number of
// keys.
var derivedLayout = sealed.Layout{Name: "derived file", Magic: [8]byte{'l', 'm', 'd', 'e', 'r', 'i', 'v', 'd'}, Format: derivedFormat, Fields: 1}

// Header key names.
const (
	keyContent = "content"
	keyTexts   = "texts"
	keyVectors = "vectors"
	keyCovers  = "covers"
)

// IndexDirer is a VectorSource that names a folder for derived indexes
// (lib/store's DerivedDir). A Builder over one keeps its BM25 indexes and
// vector matrices there between processes unless Options.IndexDir says
// otherwise.
type IndexDirer interface {
	DerivedDir() string
}

// ContentKeyer is a VectorSource that versions what it holds (lib/store's
// ContentKey): the key of a kind changes with every write to it. A Builder
// over a corpus in memory keeps the matrices of such a source in its index
// folder.
type ContentKeyer interface {
	ContentKey(kinds ...string) (string, error)
}

// bm25Key is the hex SHA-256 of everything a BM25 index is built from: the
// index format, the tokenizer name, and every document's ID, StartAt and
// text, each length-prefixed. Equal keys mean equal indexes.
func bm25Key(tokenizer string, docs []bm25.Doc) string {
	h := sha256.New()
	writeField(h, fmt.Sprintf("bm25 index, derived format %d", derivedFormat))
	writeField(h, tokenizer)
	for _, d := range docs {
		writeField(h, d.ID)
		writeField(h, d.StartAt)
		writeField(h, d.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func writeField(h hash.Hash, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// bm25Path names the index file of (rep, tokenizer) in dir.
func bm25Path(dir, rep, tokenizer string) string {
	return filepath.Join(dir, "bm25-"+rep+"-"+tokenizer+".idx")
}

// matrixPath names the matrix file of (rep, model) in dir; the model enters
// by hash, since a model name may hold any character.
func matrixPath(dir, rep, model string) string {
	h := sha256.Sum256([]byte(model))
	return filepath.Join(dir, "matrix-"+rep+"-"+hex.EncodeToString(h[:8])+".mat")
}

// derived is a derived file opened by openDerived: its header keys and its
// payload, which lies in memory that release unmaps.
type derived struct {
	keys    map[string]string
	payload []byte
	release func()
}

// openDerived maps the file at path and reads its header; ok is false when
// the file is missing or its header is not one this code writes.
func openDerived(path string) (d derived, ok bool) {
	data, release, err := mapFile(path)
	if err != nil {
		return d, false
	}
	keys, at, err := parseDerivedHeader(data)
	if err != nil {
		release()
		return d, false
	}
	return derived{keys: keys, payload: data[at:], release: release}, true
}

// The header: derivedLayout's (magic "lmderivd", format, count), then count
// (name, value) pairs of length-prefixed strings (little-endian uint32
// lengths), zero padding to a multiple of 8 bytes so that the payload is
// aligned.
func parseDerivedHeader(b []byte) (map[string]string, int, error) {
	bad := errors.New("not a derived file of this format")
	fields, err := derivedLayout.ReadHeader(b)
	if err != nil {
		return nil, 0, bad
	}
	at := derivedLayout.Size()
	str := func() (string, bool) {
		if len(b)-at < 4 {
			return "", false
		}
		n := int(binary.LittleEndian.Uint32(b[at:]))
		at += 4
		if n > len(b)-at {
			return "", false
		}
		s := string(b[at : at+n])
		at += n
		return s, true
	}
	count := int(fields[0])
	if count > 16 {
		return nil, 0, bad
	}
	keys := make(map[string]string, count)
	for range count {
		name, ok1 := str()
		value, ok2 := str()
		if !ok1 || !ok2 {
			return nil, 0, bad
		}
		keys[name] = value
	}
	at += (8 - at%8) % 8
	if at > len(b) {
		return nil, 0, bad
	}
	return keys, at, nil
}

// writeDerived writes the file at path whole (lib/internal/atomicfile: a
// temporary file renamed over it, 0600 in a 0700 folder, since an index
// holds the chats' vocabulary): the header with keys, then payload. A
// process that has the old file mapped keeps reading the old bytes.
func writeDerived(path string, keys [][2]string, payload io.WriterTo) error {
	hdr := derivedLayout.AppendHeader(nil, uint32(len(keys)))
	for _, kv := range keys {
		for _, s := range kv {
			hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(s)))
			hdr = append(hdr, s...)
		}
	}
	hdr = append(hdr, make([]byte, (8-len(hdr)%8)%8)...)
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := w.Write(hdr); err != nil {
			return err
		}
		_, err := payload.WriteTo(w)
		return err
	})
}

// loadBM25 opens the index file of (rep, tok) in dir, scored with params,
// when its key name equals value; nil when there is none, it is of other
// content, or it is damaged. The mapping is released when the index is no
// longer reachable.
func loadBM25(dir, rep string, tok tokenize.Tokenizer, params bm25.Params, name, value string) *bm25.Index {
	d, ok := openDerived(bm25Path(dir, rep, tok.Name()))
	if !ok {
		return nil
	}
	if value == "" || d.keys[name] != value {
		d.release()
		return nil
	}
	ix, err := bm25.OpenWith(d.payload, tok, params)
	if err != nil {
		d.release()
		return nil
	}
	runtime.AddCleanup(ix, func(release func()) { release() }, d.release)
	return ix
}

// saveBM25 stores ix under keys, and removes the files an older layout kept
// for (rep, tokenizer). It is best effort: a folder that cannot be written
// only costs the next process a rebuild.
func saveBM25(dir, rep, tokenizer string, keys [][2]string, ix *bm25.Index) {
	if writeDerived(bm25Path(dir, rep, tokenizer), keys, ix) != nil {
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, "bm25-"+rep+"-"+tokenizer+"-*.idx"))
	for _, f := range old {
		os.Remove(f)
	}
}

// loadMatrix opens the matrix file of (rep, model) in dir when its vectors
// key is vectorsKey, and returns its covers key; nil when there is none, it
// is of other content, or it is damaged.
func loadMatrix(dir, rep, model, vectorsKey string) (m *dense.Matrix, covers string) {
	d, ok := openDerived(matrixPath(dir, rep, model))
	if !ok {
		return nil, ""
	}
	if vectorsKey == "" || d.keys[keyVectors] != vectorsKey {
		d.release()
		return nil, ""
	}
	m, err := dense.Open(d.payload)
	if err != nil {
		d.release()
		return nil, ""
	}
	runtime.AddCleanup(m, func(release func()) { release() }, d.release)
	return m, d.keys[keyCovers]
}

// saveMatrix stores m under keys, and removes the file an older layout kept
// for (rep, model); best effort, like saveBM25.
func saveMatrix(dir, rep, model string, keys [][2]string, m *dense.Matrix) {
	if writeDerived(matrixPath(dir, rep, model), keys, m) != nil {
		return
	}
	h := sha256.Sum256([]byte(model))
	os.Remove(filepath.Join(dir, fmt.Sprintf("vectors-%s-%s.f32", rep, hex.EncodeToString(h[:8]))))
}

// lockDerived locks the derived file at path against other processes and
// other Builders (lockFile on "{path}.lock", its folder created when
// missing) until unlock is called; in a folder that cannot be written it
// returns at once, unlocked.
func lockDerived(path string) (unlock func()) {
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return func() {}
	}
	return lockFile(path + ".lock")
}

// keyPairs lists the non-empty keys among name, value pairs.
func keyPairs(kv ...string) [][2]string {
	var out [][2]string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			out = append(out, [2]string{kv[i], kv[i+1]})
		}
	}
	return out
}
