// Package ingest stores LINE export files in a linemem database: it finds the
// exports under the given paths, reads each (lib/lineexport), cuts it into
// chunks (lib/chunking) and stores both in one transaction per source
// (lib/store). A file whose bytes and chunking options are unchanged is
// recognised by its SHA-256 before parsing and costs one read.
package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/regularfile"
	"github.com/linemem/linemem/lib/store"
)

// DefaultMaxFileBytes is the most bytes read from one export unless
// Input.MaxBytes says otherwise: 1 GiB, ten times the largest real LINE
// export met (a decade of a busy group chat is about 100 MB), so that a file
// that never ends (a link to /dev/zero) or a huge file given by mistake
// stops with an error instead of filling memory.
const DefaultMaxFileBytes int64 = 1 << 30

// Input is one export file found by Collect.
type Input struct {
	Path string
	Size int64
	// MaxBytes is the most bytes read from the file; a larger file fails
	// with an error naming the limit. 0 = DefaultMaxFileBytes.
	MaxBytes int64
}

func (in Input) maxBytes() int64 {
	if in.MaxBytes > 0 {
		return in.MaxBytes
	}
	return DefaultMaxFileBytes
}

// Skipped is a path Collect passed over because it is not a regular file
// (a named pipe, a device, a socket, or a link to one of them): reading it
// could block forever or never end. It is a warning, not a failure.
type Skipped struct {
	Path string
	What string // "a named pipe", "a device", …
}

func (s *Skipped) Error() string {
	return fmt.Sprintf("%s: skipped: %s, not a regular file", s.Path, s.What)
}

// Collect expands paths into export files: a folder (or a symbolic link to
// one) contributes every .json and .txt file below it in lexical order, a
// file itself. Only regular files are taken: a symbolic link is followed to
// a regular file only, and a named pipe, device or socket is returned as a
// *Skipped problem (a warning). One file reached by two paths (a folder and
// a file in it, or a link and its target: the same path once symbolic links
// are resolved) is one input, under the first path. A path that does not
// exist, a folder that cannot be walked, a file name that is not UTF-8
// (shown with its bytes escaped; a source name must be text), or a second
// file with an already-taken source name (base name) is returned as a
// problem; the other files are still returned.
func Collect(paths []string) ([]Input, []error) {
	var files []Input
	var problems []error
	bySource := map[string]string{}
	seen := map[string]bool{} // resolved paths
	add := func(path string, info fs.FileInfo) {
		if !info.Mode().IsRegular() {
			problems = append(problems, &Skipped{Path: path, What: regularfile.Kind(info.Mode())})
			return
		}
		if resolved, err := resolve(path); err == nil {
			if seen[resolved] {
				return
			}
			seen[resolved] = true
		}
		source := filepath.Base(path)
		if !utf8.ValidString(source) {
			problems = append(problems, fmt.Errorf("%q: the file name is not UTF-8 (its bytes are shown escaped); a source is named by its file name, so rename the file", path))
			return
		}
		if first, taken := bySource[source]; taken {
			problems = append(problems, fmt.Errorf("%s: source name %s is already taken by %s; rename one of them", path, source, first))
			return
		}
		bySource[source] = path
		files = append(files, Input{Path: path, Size: info.Size()})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, fmt.Errorf("%s: no such file or folder", p))
			continue
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		if !info.IsDir() {
			add(p, info)
			continue
		}
		root := p
		if l, err := os.Lstat(p); err == nil && l.Mode()&fs.ModeSymlink != 0 {
			// WalkDir does not follow a symbolic link at its root.
			if root, err = filepath.EvalSymlinks(p); err != nil {
				problems = append(problems, err)
				continue
			}
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			path = underRoot(p, root, path)
			if d.IsDir() || !lineexport.Supported(path) {
				return nil
			}
			info, err := os.Stat(path) // follows a link to what it names
			if err != nil {
				return err
			}
			if info.IsDir() {
				return nil
			}
			add(path, info)
			return nil
		})
		if err != nil {
			problems = append(problems, err)
		}
	}
	return files, problems
}

// resolve is path made absolute with every symbolic link resolved.
func resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// underRoot rewrites a path found below root, the folder a symbolic link p
// points to, to the same path below p, so messages name the folder the user gave.
func underRoot(p, root, path string) string {
	if root == p {
		return path
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.Join(p, rel)
}

// Report says what storing one file found.
type Report struct {
	Source                      string
	Outcome                     store.IngestOutcome
	Messages, Chunks, Uncovered int
	Warnings                    []lineexport.Warning
}

// Prepared is one export hashed, read and chunked, ready to be stored.
type Prepared struct {
	Input
	Source    string
	SHA256    string
	Unchanged bool // stored already with the same content and options
	Result    *lineexport.Result
	Chunks    []chat.Chunk
	Stored    *store.PreparedSource // Result's messages and Chunks laid out for storing; counts the messages in no chunk
	Err       error
}

// Prepare hashes, parses and chunks one export without writing, counts its
// messages in no chunk, and lays them out for storing
// (store.PrepareSource), so that Commit's transaction only writes. The file is
// read once, and the stored hash is that of the bytes parsed, even when the
// file changes meanwhile. A file stored already with the same SHA-256 of its
// bytes and the same options is recognised before parsing.
func Prepare(st *store.Store, in Input, opts chunking.Options) Prepared {
	p := Prepared{Input: in, Source: filepath.Base(in.Path)}
	data, err := readRegular(in.Path, in.maxBytes())
	if err != nil {
		p.Err = err
		return p
	}
	sum := sha256.Sum256(data)
	p.SHA256, p.Size = hex.EncodeToString(sum[:]), int64(len(data))
	info, found, err := st.Source(p.Source)
	if err != nil {
		p.Err = err
		return p
	}
	if found && info.ContentSHA256 == p.SHA256 && info.Options == opts {
		p.Unchanged = true
		return p
	}
	if p.Result, p.Err = lineexport.ReadBytes(in.Path, data); p.Err != nil {
		return p
	}
	if p.Chunks, err = chunking.Build(p.Result.Messages, opts); err != nil {
		p.Err = fmt.Errorf("%s: %w", in.Path, err)
		return p
	}
	if p.Stored, err = store.PrepareSource(p.Source, p.Result.Messages, p.Chunks); err != nil {
		p.Err = fmt.Errorf("%s: %w", in.Path, err)
		return p
	}
	p.Stored.SetTitle(p.Result.Title)
	return p
}

// Commit stores a prepared export in one transaction; a preparation error is
// returned as is, and nothing is written. A source found unchanged, before
// parsing or because another run stored the same file meanwhile, is reported
// without warnings.
func Commit(st *store.Store, p Prepared, opts chunking.Options) (Report, error) {
	rep := Report{Source: p.Source}
	if p.Err != nil {
		return rep, p.Err
	}
	if p.Unchanged {
		info, _, err := st.Source(p.Source)
		if err != nil {
			return rep, err
		}
		rep.Outcome, rep.Messages, rep.Chunks = store.Unchanged, info.Messages, info.Chunks
		rep.Uncovered, err = st.UncoveredMessages(p.Source)
		return rep, err
	}
	stored := p.Stored
	if stored == nil { // prepared by hand rather than by Prepare
		var err error
		if stored, err = store.PrepareSource(p.Source, p.Result.Messages, p.Chunks); err != nil {
			return rep, err
		}
	}
	outcome, err := st.IngestPrepared(stored, p.SHA256, p.Size, opts)
	if err != nil {
		return rep, err
	}
	rep.Outcome, rep.Messages, rep.Chunks = outcome, len(p.Result.Messages), len(p.Chunks)
	rep.Uncovered = stored.Uncovered()
	if outcome != store.Unchanged { // stored meanwhile by another run, which reported them
		rep.Warnings = p.Result.Warnings
	}
	return rep, nil
}

// File stores one export under its base name: Prepare then Commit. An
// unchanged file is recognised before parsing; a changed one replaces the
// source's messages and chunks atomically; a file that fails to parse changes
// nothing.
func File(st *store.Store, path string, opts chunking.Options) (Report, error) {
	return Commit(st, Prepare(st, Input{Path: path}, opts), opts)
}

// Files stores every input in order. Files are hashed, read and chunked
// (Prepare) by one goroutine per processor, at most one more file ahead of
// the store's writes than there are goroutines, so that parsing overlaps
// itself and the SQLite transactions on a multi-core machine; they are
// committed one at a time, in input order. done is called after each file
// with its position (from 0), its report and its error; a failed file does
// not stop the others.
func Files(st *store.Store, inputs []Input, opts chunking.Options, done func(i int, in Input, rep Report, err error)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), len(inputs)))
	prepared := make([]chan Prepared, len(inputs))
	for i := range prepared {
		prepared[i] = make(chan Prepared, 1)
	}
	uncommitted := make(chan struct{}, workers+1) // a token per file being prepared or waiting for its commit
	var next atomic.Int64
	for range workers {
		go func() {
			for {
				uncommitted <- struct{}{}
				i := int(next.Add(1) - 1)
				if i >= len(inputs) {
					<-uncommitted
					return
				}
				prepared[i] <- Prepare(st, inputs[i], opts)
			}
		}()
	}
	for i := range inputs {
		p := <-prepared[i]
		rep, err := Commit(st, p, opts)
		<-uncommitted
		done(i, p.Input, rep, err)
	}
}

// readRegular reads the file at path, which must be a regular file of at
// most limit bytes. It is opened by regularfile.Open (without blocking, so a
// named pipe put in its place since Collect does not wait for a writer, and
// checked after opening), and at most limit+1 bytes are ever read.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := regularfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tooBig := func(n int64) error {
		return fmt.Errorf("%s: %d bytes or more, over the limit of %d bytes per file (--max-file-mib)", path, n, limit)
	}
	if info.Size() > limit {
		return nil, tooBig(info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooBig(int64(len(data)))
	}
	return data, nil
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
