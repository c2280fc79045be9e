// Package benchmark runs the real-data benchmark (`linemem benchmark`): the
// paper protocol on a public conversation data set converted into a data
// folder with per-user folders (`linemem datasets convert … --per-user`),
// pooled and per user, and, for a data set with native questions, at the
// field's units. It checks every input before writing anything, prepares
// the pooled and per-user studies (lib/reproduce), runs them, takes the
// numbers from lib/robustness and lib/beyond, and writes their layouts
// (lib/reproduce) into a folder replaced as a whole (lib/atomicdir).
// Nothing is written into the data folder: the per-user runs read copies of
// the user folders under the work folder, with the pooled study's vectors
// shipped to them.
package benchmark

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/atomicdir"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/reproduce"
)

// Options are what Run runs.
type Options struct {
	// Options are the pooled study's: DataDir is a folder written by
	// `linemem datasets convert … --per-user`; DBPath is set by Run.
	// EmbedModel names vectors stored in Work/pooled.db (empty: the local
	// LSA model); without a UnitEncoder a named model leaves the units
	// study out, since its rows would be LSA's.
	reproduce.Options
	Name string // the data set's name in captions
	Out  string // the output folder, replaced as a whole when the run completes
	Work string // databases and the copies of the user folders, reused by reruns
	// UnitEncoder, when set, embeds the documents of the units study
	// (RunUnits) with a neural model instead of fitting LSA on each unit.
	UnitEncoder *beyond.Encoder
	// Units, when set, are the units the units study runs per conversation
	// (of reproduce.PerConversationUnits); the pooled haystack runs only
	// the units of reproduce.PooledUnits among them.
	Units []string
}

// Report is what Run did.
type Report struct {
	Written []string // the files written, under Out
	Skipped []string // the user folders without an answerable question, by name
}

// Run runs the real-data benchmark: it checks every input before writing
// anything, then writes the paper's artefacts on the pooled folder
// (reproduce.WritePaper), the benchmark-native metrics, the units study
// when the folder has native questions (its unit runs go to Work/RunsDir),
// the per-user study (RunUsers, each user on a copy of its folder under
// Work/users with the pooled study's vectors) and dataset.json into a
// staging folder that replaces Out only when all of it succeeded. An Out
// that is neither empty nor an earlier benchmark's is refused; nothing is
// written into DataDir. Two runs that share Work take turns
// (atomicdir.Hold): the second waits, saying so in Log, and then reuses the
// databases the first left.
func Run(o Options) (*Report, error) {
	userDirs, skipped, err := checkFolder(o.DataDir)
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if err := os.MkdirAll(o.Work, 0o755); err != nil {
		return nil, err
	}
	release, err := atomicdir.Hold(o.Work, func() {
		fmt.Fprintf(o.Log, "waiting for another benchmark that uses the working folder %s\n", o.Work)
	})
	if err != nil {
		return nil, err
	}
	defer release()
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(o.Out)), 0o755); err != nil {
		return nil, err
	}
	outDir, err := atomicdir.Begin(o.Out, func(existing string) error {
		if entries, err := os.ReadDir(existing); err != nil || len(entries) == 0 {
			return err
		}
		if _, err := os.Stat(filepath.Join(existing, reproduce.BenchmarkUsersFile)); err != nil {
			return fmt.Errorf("%s is not empty and holds no %s of an earlier benchmark: give a new or empty output folder", existing, reproduce.BenchmarkUsersFile)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer outDir.Abort()
	staged, err := write(o, userDirs, outDir.Path())
	if err != nil {
		return nil, err
	}
	if err := outDir.Commit(); err != nil {
		return nil, err
	}
	rep := &Report{Skipped: skipped}
	for _, p := range staged {
		rel, err := filepath.Rel(outDir.Path(), p)
		if err != nil {
			return nil, err
		}
		rep.Written = append(rep.Written, filepath.Join(o.Out, rel))
	}
	return rep, nil
}

// write runs every study of Run and writes it into out.
func write(o Options, userDirs []string, out string) ([]string, error) {
	dirs, err := copyUserFolders(userDirs, filepath.Join(o.Work, "users"))
	if err != nil {
		return nil, err
	}
	pooledOpts := o.Options
	pooledOpts.DBPath = filepath.Join(o.Work, "pooled.db")
	s, err := reproduce.Prepare(pooledOpts)
	if err != nil {
		return nil, err
	}
	written, err := reproduce.WritePaper(s, out)
	if err == nil {
		err = ShipVectors(s.Study, dirs)
	}
	pooledModel := s.EmbedModel
	if err == nil {
		var native []string
		native, err = reproduce.WriteNative(s, out)
		written = append(written, native...)
	}
	perUser := o
	perUser.EmbedModel = ""
	given := o.EmbedModel != ""
	if given && o.UnitEncoder == nil {
		fmt.Fprintln(o.Log, "the units study is left out: an embedding model without an encoder for the units study would give it LSA vectors")
	} else if err == nil && HasNative(o.DataDir) {
		var units []string
		units, err = writeUnits(perUser, s, dirs, out)
		written = append(written, units...)
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return written, err
	}
	u, err := RunUsers(perUser, dirs)
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
	path, err := WriteDatasetInfo(o.DataDir, out)
	if err != nil {
		return written, err
	}
	return append(written, path), nil
}

// writeUnits runs the study at the field's units (turn, session, chunk per
// conversation; turn on the pooled haystack), writes its tables into out and
// its unit runs into o.Work/RunsDir.
func writeUnits(o Options, pooled *reproduce.Study, dirs []string, out string) ([]string, error) {
	u, err := RunUnits(o, pooled, dirs)
	if err != nil {
		return nil, err
	}
	if _, err := WriteRuns(u, filepath.Join(o.Work, RunsDir)); err != nil {
		return nil, err
	}
	return u.WriteAll(out)
}
