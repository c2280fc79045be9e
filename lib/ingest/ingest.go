// Package ingest stores LINE export files in a linemem database: it finds the
// exports under the given paths, reads each (lib/lineexport), cuts it into
// chunks (lib/chunking) and stores both in one transaction per source
// (lib/store). A file whose bytes and chunking options are unchanged is
// recognised by its SHA-256 before parsing and costs one read.
package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/store"
)

// Input is one export file found by Collect.
type Input struct {
	Path string
	Size int64
}

// Collect expands paths into export files: a folder contributes every .json
// and .txt file below it in lexical order, a file itself. A path that does not
// exist, a folder that cannot be walked, or a second file with an
// already-taken source name (base name) is returned as a problem; the other
// files are still returned.
func Collect(paths []string) ([]Input, []error) {
	var files []Input
	var problems []error
	bySource := map[string]string{}
	add := func(path string, size int64) {
		source := filepath.Base(path)
		if first, taken := bySource[source]; taken {
			problems = append(problems, fmt.Errorf("%s: source name %s is already taken by %s; rename one of them", path, source, first))
			return
		}
		bySource[source] = path
		files = append(files, Input{path, size})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if !info.IsDir() {
			add(p, info.Size())
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !lineexport.Supported(path) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			add(path, info.Size())
			return nil
		})
		if err != nil {
			problems = append(problems, err)
		}
	}
	return files, problems
}

// Report says what storing one file found.
type Report struct {
	Source                      string
	Outcome                     store.IngestOutcome
	Messages, Chunks, Uncovered int
	Warnings                    []lineexport.Warning
}

// File stores one export under its base name. An unchanged file (same SHA-256
// of its bytes, same options) is recognised before parsing; a changed one
// replaces the source's messages and chunks atomically; a file that fails to
// parse changes nothing.
func File(st *store.Store, path string, opts chunking.Options) (Report, error) {
	source := filepath.Base(path)
	rep := Report{Source: source}
	sum, size, err := HashFile(path)
	if err != nil {
		return rep, err
	}
	if info, found, err := st.Source(source); err != nil {
		return rep, err
	} else if found && info.ContentSHA256 == sum && info.Options == opts {
		rep.Outcome, rep.Messages, rep.Chunks = store.Unchanged, info.Messages, info.Chunks
		rep.Uncovered, err = st.UncoveredMessages(source)
		return rep, err
	}
	res, err := lineexport.ReadFile(path)
	if err != nil {
		return rep, err
	}
	chunks, err := chunking.Build(res.Messages, opts)
	if err != nil {
		return rep, fmt.Errorf("%s: %w", path, err)
	}
	if rep.Outcome, err = st.IngestSource(source, sum, size, opts, res.Messages, chunks); err != nil {
		return rep, err
	}
	rep.Messages, rep.Chunks = len(res.Messages), len(chunks)
	rep.Uncovered = chunking.Uncovered(res.Messages, chunks)
	rep.Warnings = res.Warnings
	return rep, nil
}

// HashFile returns the lowercase hex SHA-256 and the size of a file.
func HashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
