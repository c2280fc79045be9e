// Package reproduce lays the paper's tables and figures out, and those of
// the analyses beyond it, from a Study: a data folder prepared by lib/study
// (its store, questions, gold, vectors and the protocol run every artefact
// reuses, Study.Outcome, an experiment.Outcome: single retrievers, the
// sweep, the selected hybrid, computed once on demand). It writes them with
// a per-question metrics CSV holding question IDs only and manifest.json.
//
// The numbers come from lib/experiment and lib/beyond, the study from
// lib/study; this package computes and prepares none of them (the layout
// rule of docs/ARCHITECTURE.md). Each table, figure or file is an Artefact
// of the registry Artefacts, declared in a file named for what it makes;
// Build builds one by slug, Write writes one, and Study.WriteAll writes them
// all in registry order followed by the manifest. `linemem reproduce` and
// the notebooks call the same entries.
package reproduce

import (
	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/study"
)

// Options configure a reproduction: how the data folder is prepared
// (study.Options, whose Protocol and Chunking are used as given) and how its
// artefacts are laid out.
type Options struct {
	study.Options
	Layout
}

// Layout says which artefacts a reproduction builds and at what size.
type Layout struct {
	// Artefacts are the slugs of the artefacts the study will build (nil:
	// every artefact of the registry); Prepare refuses a protocol that
	// lacks a metric one of them reads (Artefact.CheckMetrics) before it
	// ingests anything.
	Artefacts []string
	// ColumnFigures draws figures at one column's size
	// (report.ColumnWidth × report.ColumnHeight) instead of the text width
	// (report.DefaultWidth × report.DefaultHeight).
	ColumnFigures bool
}

// PaperOptions returns the options of the paper's reproduction of the data
// folder dataDir into the database dbPath (study.PaperOptions): every
// artefact, figures at the text width.
func PaperOptions(dataDir, dbPath string) Options {
	return Options{Options: study.PaperOptions(dataDir, dbPath)}
}

// savedOptions returns the options a saved run (Robustness.Save,
// Users.Save) records: the paper's protocol under its tokenizer, B and seed.
func savedOptions(tokenizer string, b int, seed uint64) Options {
	o := PaperOptions("", "")
	o.Protocol.Tokenizer, o.Protocol.B, o.Protocol.Seed = tokenizer, b, seed
	return o
}

// FigureSize is the width and height every figure is saved at.
func (l Layout) FigureSize() (width, height vg.Length) {
	if l.ColumnFigures {
		return report.ColumnWidth, report.ColumnHeight
	}
	return report.DefaultWidth, report.DefaultHeight
}

// Study is a prepared study (lib/study) with its Layout: the shared state
// every artefact reads. The results of lib/beyond that several artefacts
// read are computed on first use and cached on it.
type Study struct {
	*study.Study
	Layout Layout

	cache study.Cache // results of cached, by key
}

// Prepare refuses a protocol that lacks a metric one of opts.Artefacts
// reads, then prepares the data folder (study.Prepare: ingest, summaries,
// questions and gold, vectors) and returns it to lay out under opts.Layout.
// Close the Study when done.
func Prepare(opts Options) (*Study, error) {
	if err := checkArtefacts(opts.Protocol, opts.Artefacts); err != nil {
		return nil, err
	}
	s, err := study.Prepare(opts.Options)
	if err != nil {
		return nil, err
	}
	return &Study{Study: s, Layout: opts.Layout}, nil
}

// cached returns the value stored on s under key, or computes it with f and
// stores it when f succeeds (study.Cached).
func cached[T any](s *Study, key string, f func() (T, error)) (T, error) {
	return study.Cached(&s.cache, key, f)
}
