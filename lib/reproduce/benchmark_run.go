package reproduce

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/atomicdir"
)

// BenchmarkOptions are what Benchmark runs.
type BenchmarkOptions struct {
	// Options are the pooled study's: DataDir is a folder written by
	// `linemem datasets convert … --per-user`; DBPath is set by Benchmark.
	// EmbedModel names vectors stored in Work/pooled.db (empty: the local
	// LSA model); without a UnitEncoder a named model leaves the units
	// study out, since its rows would be LSA's.
	Options
	Name string // the data set's name in captions
	Out  string // the output folder, replaced as a whole when the run completes
	Work string // databases and the copies of the user folders, reused by reruns
}

// BenchmarkReport is what Benchmark did.
type BenchmarkReport struct {
	Written []string // the files written, under Out
	Skipped []string // the user folders without an answerable question, by name
}

// Benchmark runs the real-data benchmark: it checks every input before
// writing anything, then writes the paper's artefacts on the pooled folder
// (WritePaper), the benchmark-native metrics, the units study when the
// folder has native questions (its unit runs go to Work/RunsDir), the
// per-user study (RunUsers, each user on a copy of its folder under
// Work/users with the pooled study's vectors) and dataset.json into a
// staging folder that replaces Out only when all of it succeeded. An Out
// that is neither empty nor an earlier benchmark's is refused; nothing is
// written into DataDir.
func Benchmark(o BenchmarkOptions) (*BenchmarkReport, error) {
	userDirs, skipped, err := checkBenchmarkFolder(o.DataDir)
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if err := os.MkdirAll(o.Work, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(o.Out)), 0o755); err != nil {
		return nil, err
	}
	outDir, err := atomicdir.Begin(o.Out, func(existing string) error {
		if entries, err := os.ReadDir(existing); err != nil || len(entries) == 0 {
			return err
		}
		if _, err := os.Stat(filepath.Join(existing, BenchmarkUsersFile)); err != nil {
			return fmt.Errorf("%s is not empty and holds no %s of an earlier benchmark: give a new or empty output folder", existing, BenchmarkUsersFile)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer outDir.Abort()
	staged, err := writeBenchmark(o, userDirs, outDir.Path())
	if err != nil {
		return nil, err
	}
	if err := outDir.Commit(); err != nil {
		return nil, err
	}
	rep := &BenchmarkReport{Skipped: skipped}
	for _, p := range staged {
		rel, err := filepath.Rel(outDir.Path(), p)
		if err != nil {
			return nil, err
		}
		rep.Written = append(rep.Written, filepath.Join(o.Out, rel))
	}
	return rep, nil
}

// writeBenchmark runs every study of Benchmark and writes it into out.
func writeBenchmark(o BenchmarkOptions, userDirs []string, out string) ([]string, error) {
	dirs, err := copyUserFolders(userDirs, filepath.Join(o.Work, "users"))
	if err != nil {
		return nil, err
	}
	opts := o.Options
	opts.DBPath = filepath.Join(o.Work, "pooled.db")
	s, err := Prepare(opts)
	if err != nil {
		return nil, err
	}
	written, err := WritePaper(s, out)
	if err == nil {
		err = ShipVectors(s, dirs)
	}
	pooledModel := s.EmbedModel
	if err == nil {
		var native []string
		native, err = WriteNative(s, out)
		written = append(written, native...)
	}
	given := opts.EmbedModel != ""
	opts.EmbedModel = ""
	if given && opts.UnitEncoder == nil {
		fmt.Fprintln(opts.Log, "the units study is left out: an embedding model without an encoder for the units study would give it LSA vectors")
	} else if err == nil && HasNative(opts.DataDir) {
		var units []string
		units, err = writeUnits(o.Name, s, dirs, o.Work, opts, out)
		written = append(written, units...)
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return written, err
	}
	u, err := RunUsers(o.Name, dirs, o.Work, opts)
	if err != nil {
		return written, err
	}
	u.EmbedModel = pooledModel + " fitted once on the pooled corpus"
	if given {
		u.EmbedModel = pooledModel + ", the pooled study's vectors"
	}
	paths, err := u.WriteAll(out)
	written = append(written, paths...)
	if err != nil {
		return written, err
	}
	path, err := WriteDatasetInfo(opts.DataDir, out)
	if err != nil {
		return written, err
	}
	return append(written, path), nil
}

// writeUnits runs the study at the field's units (turn, session, chunk per
// conversation; turn on the pooled haystack), writes its tables into out and
// its unit runs into work/RunsDir.
func writeUnits(name string, pooled *Study, dirs []string, work string, opts Options, out string) ([]string, error) {
	u, err := RunUnits(name, pooled, dirs, work, opts)
	if err != nil {
		return nil, err
	}
	if _, err := u.WriteRuns(filepath.Join(work, RunsDir)); err != nil {
		return nil, err
	}
	return u.WriteAll(out)
}
