package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
)

// Kinds of content whose versions key derived indexes (ContentKey). Every
// write to a kind bumps its version in the same transaction; a database
// also carries a random identity, so a file deleted and ingested again never
// reuses an old key.
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

// bumpContent marks kinds as written in tx.
func bumpContent(tx *sql.Tx, kinds ...string) error {
	_, err := tx.Exec(`UPDATE content_versions SET version = version + 1 WHERE kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)`, anySlice(kinds)...)
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
// in byte order; a cheap part of Stats for commands that pick a model.
func (s *Store) ChunkVectorModels() ([]string, error) {
	rows, err := s.db.Query(`SELECT DISTINCT model FROM vectors ORDER BY model`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var models []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		models = append(models, m)
	}
	return models, rows.Err()
}
