package retrieval

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"os"
	"path/filepath"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/tokenize"
)

// IndexDirer is a VectorSource that names a folder for derived indexes
// (lib/store's DerivedDir). A Builder over one keeps its BM25 indexes there
// between processes unless Options.IndexDir says otherwise.
type IndexDirer interface {
	DerivedDir() string
}

// bm25Key is the hex SHA-256 of everything a BM25 index is built from: the
// index format, the tokenizer name, and every document's ID, StartAt and
// text, each length-prefixed. Equal keys mean equal indexes.
func bm25Key(tokenizer string, docs []bm25.Doc) string {
	h := sha256.New()
	writeField(h, "bm25 index v1")
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

// bm25File names the index file of (rep, tokenizer) with content key in dir.
func bm25File(dir, rep, tokenizer, key string) string {
	return filepath.Join(dir, "bm25-"+rep+"-"+tokenizer+"-"+key[:32]+".idx")
}

// loadBM25 reads the index stored under key; ok is false when there is none
// or it cannot be read (it is then rebuilt).
func loadBM25(dir, rep string, tok tokenize.Tokenizer, key string) (*bm25.Index, bool) {
	f, err := os.Open(bm25File(dir, rep, tok.Name(), key))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	ix, err := bm25.Read(f, tok)
	return ix, err == nil
}

// saveBM25 stores ix under key, atomically, and removes the files of older
// content of the same (rep, tokenizer). It is best effort: a folder that
// cannot be written only costs the next process a rebuild.
func saveBM25(dir, rep, tokenizer, key string, ix *bm25.Index) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	path := bm25File(dir, rep, tokenizer, key)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	if _, err := ix.WriteTo(tmp); err != nil {
		tmp.Close()
		return
	}
	if err := tmp.Close(); err != nil || os.Chmod(tmp.Name(), 0o644) != nil || os.Rename(tmp.Name(), path) != nil {
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, "bm25-"+rep+"-"+tokenizer+"-*.idx"))
	for _, f := range old {
		if f != path && !strings.HasSuffix(f, ".tmp") {
			os.Remove(f)
		}
	}
}
