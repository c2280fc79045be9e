package reproduce

import (
	"slices"

	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
)

// Run prepares the study, computes every artefact and writes it into outDir.
// It returns the paths written, in order.
func Run(opts Options, outDir string) ([]string, error) {
	s, err := Prepare(opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.WriteAll(outDir)
}

// WriteTable writes t into outDir as CSV, Markdown and LaTeX, the LaTeX with
// the single retrievers' short labels (S-BM25, E-Vec, …) and their legend, so
// that every table fits a one-column page (a table that carries them already,
// as AnswersTable does, keeps one of each). Notebooks write tables through it
// too, so their files are the bytes `linemem reproduce` writes.
func WriteTable(t report.Table, outDir string) ([]string, error) {
	for _, s := range retrieval.Singles() {
		a := report.Abbreviation{Full: s.Name(), Short: s.Short()}
		if !slices.Contains(t.Abbreviations, a) {
			t.Abbreviations = append(t.Abbreviations, a)
		}
	}
	return t.WriteFiles(outDir)
}
