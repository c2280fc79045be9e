package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"time"

	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
)

// ingestProgressBytes is the total input size from which ingest reports
// per-file progress on stderr.
const ingestProgressBytes = 8 << 20

func init() {
	register(&command{
		name:    "ingest",
		summary: "store LINE exports (.json by-date, .txt history) as messages and chunks",
		usage: `PATH…

Each PATH is an export file or a folder searched recursively for .json and
.txt files. A source is named by its file's base name; re-ingesting a file
whose content and chunking flags are unchanged writes nothing, and a changed
file replaces that source's messages and chunks. Bad files are reported as
FILE:LINE: expected …, the good ones are still stored, and the exit code is 1.
Only regular files are read (a link is followed to a regular file only; a
named pipe, device or socket is skipped with a warning), each up to
--max-file-mib; one file reached by two paths is ingested once.

When anything was added or replaced, ingest then builds the everyday
search's index (beside the database, in .DB.derived/), so the first search
is as fast as the next ones. The chat's title in a .txt header is stored
with the source.`,
		run: runIngest,
	})
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
	maxMiB := fset.Int64("max-file-mib", ingest.DefaultMaxFileBytes>>20, "read at most `N` MiB from one file; a larger file fails")
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
	if *maxMiB <= 0 || *maxMiB > math.MaxInt64>>20 {
		return fmt.Errorf("%w: --max-file-mib must be a positive number of MiB, got %d", errUsage, *maxMiB)
	}

	files, problems := ingest.Collect(paths)
	failures := 0
	for _, p := range problems {
		var skipped *ingest.Skipped
		if errors.As(p, &skipped) {
			fmt.Fprintf(env.stderr, "warning: %v\n", p)
			continue
		}
		fmt.Fprintf(env.stderr, "%v\n", p)
		failures++
	}
	var total int64
	for i := range files {
		files[i].MaxBytes = *maxMiB << 20
		total += files[i].Size
	}
	if len(files) == 0 {
		if failures == 0 {
			return fmt.Errorf("no .json or .txt exports found in %v", paths)
		}
		return fmt.Errorf("%d of %s failed; see the messages above", failures, plural(len(paths), "path"))
	}
	counts := map[store.IngestOutcome]int{}
	_, statErr := os.Stat(dbPath)
	created := errors.Is(statErr, fs.ErrNotExist)
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer func() {
		st.Close()
		if created && counts[store.Added]+counts[store.Replaced]+counts[store.Unchanged] == 0 {
			removeDatabase(dbPath)
		}
	}()

	ingest.Files(st, files, opts, func(i int, in ingest.Input, rep ingest.Report, err error) {
		if !*quiet && total >= ingestProgressBytes {
			fmt.Fprintf(env.stderr, "ingest [%d/%d] %s (%.1f MiB)\n", i+1, len(files), in.Path, float64(in.Size)/(1<<20))
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "%v\n", err)
			failures++
			return
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(env.stderr, "warning: %s\n", w)
		}
		counts[rep.Outcome]++
		fmt.Fprintf(env.stdout, "%-9s %s: %s, %s", rep.Outcome, rep.Source, plural(rep.Messages, "message"), plural(rep.Chunks, "chunk"))
		if rep.Uncovered > 0 {
			fmt.Fprintf(env.stdout, ", %d messages in no chunk", rep.Uncovered)
		}
		fmt.Fprintln(env.stdout)
	})
	fmt.Fprintf(env.stdout, "%d added, %d replaced, %d unchanged", counts[store.Added], counts[store.Replaced], counts[store.Unchanged])
	if failures > 0 {
		fmt.Fprintf(env.stdout, ", %d failed", failures)
	}
	fmt.Fprintf(env.stdout, " → %s\n", dbPath)
	if counts[store.Added]+counts[store.Replaced] > 0 {
		// The everyday search's index is built now, so that the first
		// search after an ingest is as fast as the next ones.
		start := time.Now()
		if _, err := memory.Open(st, memory.Options{}); err != nil {
			fmt.Fprintf(env.stderr, "warning: the everyday search index was not built (the first search will build it): %v\n", err)
		} else if !*quiet {
			fmt.Fprintf(env.stderr, "everyday search index built in %s\n", time.Since(start).Round(time.Millisecond))
		}
	}
	if failures > 0 {
		return fmt.Errorf("%d of %s failed; see the messages above", failures, plural(len(files), "file"))
	}
	return nil
}

// removeDatabase deletes the SQLite file at path with its WAL and shared
// memory files: an ingest that stored nothing leaves no database behind.
func removeDatabase(path string) {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		os.Remove(p)
	}
}

// plural formats "1 chunk", "2 chunks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
