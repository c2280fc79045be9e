package reproduce

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
)

// Artefact is one table, figure or file that a reproduction writes: its
// Slug (what `linemem reproduce --only` and Build take), the shared state of
// the Study it Needs, the metrics it reads by name, and how to Build it.
// Artefacts lists them all.
type Artefact struct {
	Slug  string
	Needs Need
	Paper bool // a table or figure of the paper (what a benchmark folder holds)
	// Metrics are the metrics the artefact reads by name, which the
	// protocol must evaluate (Protocol.Metrics); the interval columns and
	// the selection metric follow the protocol and need no entry here.
	Metrics []string
	Build   func(*Study) (Output, error)
}

// CheckMetrics reports the first metric of a.Metrics that p does not
// evaluate: building a would otherwise print it as zeros.
func (a Artefact) CheckMetrics(p experiment.Protocol) error {
	for _, m := range a.Metrics {
		if !slices.Contains(p.Metrics, m) {
			return fmt.Errorf("reproduce: %s needs the metric %s, which the protocol's metrics %v lack", a.Slug, m, p.Metrics)
		}
	}
	return nil
}

// withMetrics returns a reading the metrics ms by name.
func withMetrics(a Artefact, ms ...string) Artefact {
	a.Metrics = ms
	return a
}

// checkArtefacts checks the metric needs of the artefacts of slugs under p
// (nil slugs: every artefact of the registry).
func checkArtefacts(p experiment.Protocol, slugs []string) error {
	if slugs == nil {
		slugs = Slugs()
	}
	for _, slug := range slugs {
		a, err := Lookup(slug)
		if err != nil {
			return err
		}
		if err := a.CheckMetrics(p); err != nil {
			return err
		}
	}
	return nil
}

// Output is what an artefact builds: exactly one of a table, a figure or a
// file.
type Output struct {
	Table  *report.Table
	Figure *Figure
	File   *File
}

// File is an output file other than a table or a figure.
type File struct {
	Name string // file name in the output folder
	Data []byte
}

// Need is a set of the Study's shared state an artefact requires.
type Need uint

const (
	NeedsSingles  Need = 1 << iota // the single-retriever evaluations (Study.Singles)
	NeedsSweep                     // the hybrid sweep and its selection (Study.Sweep, Study.Selected)
	NeedsMessages                  // the stored messages (Study.Messages)
	NeedsEvidence                  // evidence.jsonl in the data folder; WriteAll skips the artefact without it
	NeedsAnswers                   // extractive answers through lib/memory (Answers)
)

var needNames = []string{"singles", "sweep", "messages", "evidence", "answers"}

// String lists the needs by name, comma-separated, in declaration order;
// no need is "none".
func (n Need) String() string {
	if n == 0 {
		return "none"
	}
	var names []string
	for i, name := range needNames {
		if n&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// Artefacts is the registry: every artefact `linemem reproduce` writes, in
// the order WriteAll writes them. Each is declared in the file named for
// what it makes.
var Artefacts = []Artefact{
	table1, table3, table4, table5, table6, table7, table8, table9, ceilingArtefact,
	figure1, figure2, figure3, figure4, figure5, figure6,
	queryExpansionArtefact, selectionAwareArtefact, ablationTableArtefact, losslessArtefact, evidenceGroupsArtefact, ablationFigureArtefact,
	tokenizersTableArtefact, fusionTableArtefact, heldOutArtefact, aggregateArtefact, tokenizersFigureArtefact, fusionFigureArtefact,
	answersTableArtefact, answersFigureArtefact,
	perQuestionArtefact,
}

// Slugs returns the slugs of Artefacts, in registry order.
func Slugs() []string {
	out := make([]string, len(Artefacts))
	for i, a := range Artefacts {
		out[i] = a.Slug
	}
	return out
}

// Lookup returns the artefact of slug. An unknown slug is an error that
// lists the known ones.
func Lookup(slug string) (Artefact, error) {
	i := slices.IndexFunc(Artefacts, func(a Artefact) bool { return a.Slug == slug })
	if i < 0 {
		return Artefact{}, fmt.Errorf("reproduce: unknown artefact %q; want one of %s", slug, strings.Join(Slugs(), ", "))
	}
	return Artefacts[i], nil
}

// Build builds the artefact of slug over s. An artefact whose needs s cannot
// meet (NeedsEvidence without evidence.jsonl) is an error.
func Build(s *Study, slug string) (Output, error) {
	a, err := Lookup(slug)
	if err != nil {
		return Output{}, err
	}
	return a.build(s)
}

// build builds a over s, or says which input or metric it lacks.
func (a Artefact) build(s *Study) (Output, error) {
	if err := a.CheckMetrics(s.Protocol); err != nil {
		return Output{}, err
	}
	if !available(s, a.Needs) {
		return Output{}, fmt.Errorf("reproduce: %s needs %s in %s", a.Slug, datafolder.EvidenceFile, s.Opts.DataDir)
	}
	return a.Build(s)
}

// available reports whether s can meet needs: all but NeedsEvidence are
// computed on demand.
func available(s *Study, needs Need) bool {
	return needs&NeedsEvidence == 0 || s.Folder.Has(datafolder.EvidenceFile)
}

// Write builds the artefact of slug over s and writes it into outDir (a
// table as CSV, Markdown and LaTeX with WriteTable, a figure as PNG, SVG and
// PDF at Layout.FigureSize with its caption file). It returns the paths
// written, in order.
func Write(s *Study, slug, outDir string) ([]string, error) {
	a, err := Lookup(slug)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	return a.write(s, outDir)
}

// write builds a over s and writes it into outDir, which exists.
func (a Artefact) write(s *Study, outDir string) ([]string, error) {
	out, err := a.build(s)
	if err != nil {
		return nil, err
	}
	width, height := s.Layout.FigureSize()
	paths, err := out.write(outDir, width, height)
	if err != nil {
		return paths, fmt.Errorf("%s: %w", a.Slug, err)
	}
	return paths, nil
}

// write writes o into outDir, a figure at width × height.
func (o Output) write(outDir string, width, height vg.Length) ([]string, error) {
	switch {
	case o.Table != nil:
		return WriteTable(*o.Table, outDir)
	case o.Figure != nil:
		return o.Figure.Save(outDir, width, height)
	case o.File != nil:
		path := filepath.Join(outDir, o.File.Name)
		return []string{path}, os.WriteFile(path, o.File.Data, 0o644)
	}
	return nil, fmt.Errorf("reproduce: an artefact built nothing")
}

// WriteAll writes every artefact of the registry that s can build, in
// registry order (those needing evidence.jsonl are skipped without it), and
// then the manifest, into outDir. It returns the paths written, in order.
func (s *Study) WriteAll(outDir string) ([]string, error) {
	written, err := writeArtefacts(s, outDir, func(Artefact) bool { return true })
	if err != nil {
		return written, err
	}
	path := filepath.Join(outDir, ManifestFile)
	if err := writeManifest(s, path, written); err != nil {
		return written, err
	}
	return append(written, path), nil
}

// WritePaper writes the paper's artefacts only (Tables 1 and 3–9, the
// candidate ceiling and Figures 1–6 with their captions) into outDir: what a
// benchmark folder holds, without the analyses beyond the paper, the
// per-question CSV or the manifest.
func WritePaper(s *Study, outDir string) ([]string, error) {
	return writeArtefacts(s, outDir, func(a Artefact) bool { return a.Paper })
}

func writeArtefacts(s *Study, outDir string, keep func(Artefact) bool) ([]string, error) {
	for _, a := range Artefacts {
		if keep(a) {
			if err := a.CheckMetrics(s.Protocol); err != nil {
				return nil, err
			}
		}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, a := range Artefacts {
		if !keep(a) || !available(s, a.Needs) {
			continue
		}
		err := s.Timed(a.Slug, func() error {
			paths, err := a.write(s, outDir)
			written = append(written, paths...)
			return err
		})
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// tableArtefact registers a table built by build.
func tableArtefact(slug string, needs Need, paper bool, build func(*Study) (report.Table, error)) Artefact {
	return Artefact{Slug: slug, Needs: needs, Paper: paper, Build: func(s *Study) (Output, error) {
		t, err := build(s)
		if err != nil {
			return Output{}, err
		}
		return Output{Table: &t}, nil
	}}
}

// figureArtefact registers a figure built by build.
func figureArtefact(slug string, needs Need, paper bool, build func(*Study) (Figure, error)) Artefact {
	return Artefact{Slug: slug, Needs: needs, Paper: paper, Build: func(s *Study) (Output, error) {
		f, err := build(s)
		if err != nil {
			return Output{}, err
		}
		return Output{Figure: &f}, nil
	}}
}

// tableRunArtefacts registers each of tables as a runArtefact; its slug is
// the table's own (report.Table.BaseName), known once it is built.
func tableRunArtefacts[R any](tables []func(R) report.Table) []runArtefact[R] {
	out := make([]runArtefact[R], len(tables))
	for i, table := range tables {
		out[i] = runArtefact[R]{Build: func(r R) (Output, error) {
			t := table(r)
			return Output{Table: &t}, nil
		}}
	}
	return out
}

// runArtefact is one output of a layout over several runs (a multi-seed
// run, the users of a benchmark): its slug ("" for a table: its own) and how
// to build it from the runs R. A list of them, in writing order, is that
// layout's registry, as Artefacts is the registry of one study.
type runArtefact[R any] struct {
	Slug  string
	Build func(R) (Output, error)
}

// writeRun builds every artefact of arts over r and writes it into outDir
// (created if missing), figures at width × height, and returns the paths
// written, in order.
func writeRun[R any](r R, arts []runArtefact[R], outDir string, width, height vg.Length) ([]string, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, a := range arts {
		out, err := a.Build(r)
		name := a.Slug
		if name == "" && out.Table != nil {
			name = out.Table.BaseName()
		}
		if err != nil {
			return written, fmt.Errorf("%s: %w", name, err)
		}
		paths, err := out.write(outDir, width, height)
		written = append(written, paths...)
		if err != nil {
			return written, fmt.Errorf("%s: %w", name, err)
		}
	}
	return written, nil
}
