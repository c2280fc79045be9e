package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/lineexport"
	"github.com/linemem/linemem/lib/store"
)

// ingestProgressBytes is the total input size from which ingest reports
// per-file progress on stderr.
const ingestProgressBytes = 8 << 20

func init() {
	c := &command{
		name:    "ingest",
		summary: "store LINE exports (.json by-date, .txt history) as messages and chunks",
		usage: `PATH…

Each PATH is an export file or a folder searched recursively for .json and
.txt files. A source is named by its file's base name; re-ingesting a file
whose content and chunking flags are unchanged writes nothing, and a changed
file replaces that source's messages and chunks. Bad files are reported as
FILE:LINE: expected …, the good ones are still stored, and the exit code is 1.`,
	}
	c.run = func(env *environment, args []string) error { return runIngest(env, c, args) }
	register(c)
}

func runIngest(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	opts := chunking.DefaultOptions()
	fset.IntVar(&opts.GapMinutes, "gap-minutes", opts.GapMinutes, "start a new session after a gap of more than `N` minutes")
	fset.IntVar(&opts.Window, "window", opts.Window, "messages per chunk window `N`")
	fset.IntVar(&opts.Stride, "stride", opts.Stride, "distance `N` between window starts")
	fset.IntVar(&opts.MaxChars, "max-chars", opts.MaxChars, "render limit: trim a window's raw_text to at most `N` characters")
	fset.BoolVar(&opts.Lossless, "lossless", false, "start the next window early enough that trimming leaves no message in no chunk")
	quiet := fset.Bool("quiet", false, "no progress on stderr")
	paths, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		fset.Usage()
		return fmt.Errorf("%w: no PATH given", errUsage)
	}
	if err := opts.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}

	files, failures := ingestCollect(env, paths)
	var total int64
	for _, f := range files {
		total += f.size
	}
	if len(files) == 0 {
		if failures == 0 {
			return fmt.Errorf("no .json or .txt exports found in %v", paths)
		}
		return fmt.Errorf("%d of %d paths failed", failures, len(paths))
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()

	// Files are read, parsed and chunked one ahead of the store's writes, so
	// on a multi-core machine parsing overlaps the SQLite transaction.
	prepared := make(chan ingestPrepared, 1)
	go func() {
		defer close(prepared)
		for _, f := range files {
			prepared <- ingestPrepare(st, f.path, opts)
		}
	}()
	counts := map[store.IngestOutcome]int{}
	i := 0
	for p := range prepared {
		i++
		if !*quiet && total >= ingestProgressBytes {
			fmt.Fprintf(env.stderr, "ingest [%d/%d] %s (%.1f MiB)\n", i, len(files), p.path, float64(p.size)/(1<<20))
		}
		outcome, report, err := ingestCommit(st, p, opts)
		if err != nil {
			fmt.Fprintf(env.stderr, "%v\n", err)
			failures++
			continue
		}
		for _, w := range report.warnings {
			fmt.Fprintf(env.stderr, "warning: %s\n", w)
		}
		counts[outcome]++
		fmt.Fprintf(env.stdout, "%-9s %s: %s, %s", outcome, report.source, plural(report.messages, "message"), plural(report.chunks, "chunk"))
		if report.uncovered > 0 {
			fmt.Fprintf(env.stdout, ", %d messages in no chunk", report.uncovered)
		}
		fmt.Fprintln(env.stdout)
	}
	fmt.Fprintf(env.stdout, "%d added, %d replaced, %d unchanged", counts[store.Added], counts[store.Replaced], counts[store.Unchanged])
	if failures > 0 {
		fmt.Fprintf(env.stdout, ", %d failed", failures)
	}
	fmt.Fprintf(env.stdout, " → %s\n", dbPath)
	if failures > 0 {
		return fmt.Errorf("%d input(s) failed; see the messages above", failures)
	}
	return nil
}

type ingestInput struct {
	path string
	size int64
}

// ingestCollect expands paths into export files: a folder contributes every
// .json and .txt file below it in lexical order, a file itself. Paths that do
// not exist and a second file with an already-taken source name (base name)
// are reported on stderr and counted as failures.
func ingestCollect(env *environment, paths []string) ([]ingestInput, int) {
	var files []ingestInput
	failures := 0
	bySource := map[string]string{}
	add := func(path string, size int64) {
		source := filepath.Base(path)
		if first, taken := bySource[source]; taken {
			fmt.Fprintf(env.stderr, "%s: source name %s is already taken by %s; rename one of them\n", path, source, first)
			failures++
			return
		}
		bySource[source] = path
		files = append(files, ingestInput{path, size})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(env.stderr, "%v\n", err)
			failures++
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
			fmt.Fprintf(env.stderr, "%v\n", err)
			failures++
		}
	}
	return files, failures
}

type ingestReport struct {
	source                      string
	messages, chunks, uncovered int
	warnings                    []lineexport.Warning
}

// ingestPrepared is one export read and chunked, ready to be stored.
type ingestPrepared struct {
	path, source string
	sha256       string
	size         int64
	unchanged    bool // stored already with the same content and options
	result       *lineexport.Result
	chunks       []chat.Chunk
	err          error
}

// ingestPrepare hashes, parses and chunks one export without writing. A file
// stored already with the same SHA-256 of its bytes and the same options is
// recognised before parsing and costs one read.
func ingestPrepare(st *store.Store, path string, opts chunking.Options) ingestPrepared {
	p := ingestPrepared{path: path, source: filepath.Base(path)}
	p.sha256, p.size, p.err = ingestHash(path)
	if p.err != nil {
		return p
	}
	info, found, err := st.Source(p.source)
	if err != nil {
		p.err = err
		return p
	}
	if found && info.ContentSHA256 == p.sha256 && info.Options == opts {
		p.unchanged = true
		return p
	}
	if p.result, p.err = lineexport.ReadFile(path); p.err != nil {
		return p
	}
	if p.chunks, err = chunking.Build(p.result.Messages, opts); err != nil {
		p.err = fmt.Errorf("%s: %w", path, err)
	}
	return p
}

// ingestCommit stores a prepared export in one transaction.
func ingestCommit(st *store.Store, p ingestPrepared, opts chunking.Options) (store.IngestOutcome, ingestReport, error) {
	report := ingestReport{source: p.source}
	if p.err != nil {
		return 0, report, p.err
	}
	if p.unchanged {
		info, _, err := st.Source(p.source)
		if err != nil {
			return 0, report, err
		}
		report.messages, report.chunks = info.Messages, info.Chunks
		report.uncovered, err = st.UncoveredMessages(p.source)
		return store.Unchanged, report, err
	}
	outcome, err := st.IngestSource(p.source, p.sha256, p.size, opts, p.result.Messages, p.chunks)
	if err != nil {
		return 0, report, err
	}
	report.messages, report.chunks = len(p.result.Messages), len(p.chunks)
	report.uncovered = chunking.Uncovered(p.result.Messages, p.chunks)
	report.warnings = p.result.Warnings
	return outcome, report, nil
}

// ingestHash returns the lowercase hex SHA-256 and the size of a file.
func ingestHash(path string) (string, int64, error) {
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

// plural formats "1 chunk", "2 chunks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
