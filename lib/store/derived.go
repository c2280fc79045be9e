package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"
)

// Kinds of content whose versions key derived indexes (ContentKey). Every
// write to a kind sets its version to a new random number in the same
// transaction, and a database also carries a random identity, so a key is
// never reused: not by a file deleted and ingested again, nor by a copy
// restored from a backup and then written to.
const (
	ContentChunks    = "chunks"    // chunks and their raw_text (ingest)
	ContentSummaries = "summaries" // chunk summaries
	ContentVectors   = "vectors"   // chunk vectors
)

// DerivedDir returns the folder where derived indexes of this database are
// kept, ".FILE.derived" beside database FILE (hidden, and outside the
// FILE* names of the database and its journals), or "" for an in-memory
// database. Everything in it is rebuilt from the database when missing or
// stale: deleting it loses nothing.
func (s *Store) DerivedDir() string {
	if s.path == ":memory:" {
		return ""
	}
	return filepath.Join(filepath.Dir(s.path), "."+filepath.Base(s.path)+".derived")
}

// ContentKey returns a lowercase hex SHA-256 over the database's identity
// and the current versions of kinds: it changes whenever any of them is
// written. A derived index stamped with the key of the content it was built
// from is current while the key is unchanged.
func (s *Store) ContentKey(kinds ...string) (string, error) {
	return contentKey(s.db, kinds...)
}

func contentKey(q queryer, kinds ...string) (string, error) {
	h := sha256.New()
	for _, kind := range append([]string{"database"}, kinds...) {
		var v int64
		if err := q.QueryRow(`SELECT version FROM content_versions WHERE kind = ?`, kind).Scan(&v); err != nil {
			return "", fmt.Errorf("store: content version of %s: %w", kind, err)
		}
		fmt.Fprintf(h, "%s=%d\n", kind, v)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// bumpContent marks kinds as written in tx: each gets a new random version
// (63 random bits, the same for all kinds of one write).
func bumpContent(tx *sql.Tx, kinds ...string) error {
	v := rand.Int64()
	_, err := tx.Exec(`UPDATE content_versions SET version = ? WHERE kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)`, append([]any{v}, anySlice(kinds)...)...)
	return err
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// ChunkVectorModels returns the models that chunk vectors are stored for,
// in byte order; a cheap part of Stats for commands that pick a model. It
// seeks from one (rep, model) set to the next on the index of the vector
// blocks (a set has blocks exactly while it has vectors), so its cost grows
// with the number of sets, not of vectors.
func (s *Store) ChunkVectorModels() ([]string, error) {
	seen := map[string]bool{}
	var rep, model string
	for first := true; ; first = false {
		q := `SELECT rep, model FROM vector_blocks WHERE (rep, model) > (?, ?) ORDER BY rep, model LIMIT 1`
		if first {
			q = `SELECT rep, model FROM vector_blocks ORDER BY rep, model LIMIT 1`
		}
		err := s.db.QueryRow(q, rep, model).Scan(&rep, &model)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return nil, err
		}
		seen[model] = true
	}
	return slices.Sorted(maps.Keys(seen)), nil
}

// Counts returns the number of chunks and of chunk summaries, without the
// rest of Stats.
func (s *Store) Counts() (chunks, summaries int, err error) {
	if err := s.db.QueryRow(`SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM summaries)`).Scan(&chunks, &summaries); err != nil {
		return 0, 0, err
	}
	return chunks, summaries, nil
}

// nativeLittleEndian reports whether the machine stores integers and floats
// little-endian, the byte order of stored vectors, so a blob can be read in
// place.
func nativeLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}
