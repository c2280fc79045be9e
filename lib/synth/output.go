package synth

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/trec"
)

// Files that WriteDir writes, in the layout `linemem reproduce` reads.
const (
	SourcesDir    = "sources"
	TextDir       = "sources_txt" // .txt exports of the same conversations; not read by reproduce
	QuestionsFile = "questions.jsonl"
	EvidenceFile  = "evidence.jsonl"
	QrelsFile     = "qrels.txt"
	SummariesFile = "summaries.jsonl"
)

// WriteDir writes the dataset into dir (created if missing): sources/*.json,
// sources_txt/*.txt, questions.jsonl, evidence.jsonl, qrels.txt and summaries.jsonl. Existing
// files of the same names are replaced; other files are left alone.
func (ds *Dataset) WriteDir(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, SourcesDir), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, TextDir), 0o755); err != nil {
		return err
	}
	for _, s := range ds.Sources {
		if err := os.WriteFile(filepath.Join(dir, SourcesDir, s.Name), s.JSON, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, TextDir, s.TextName()), s.Text, 0o644); err != nil {
			return err
		}
	}
	writers := []struct {
		name  string
		write func(io.Writer) error
	}{
		{QuestionsFile, func(w io.Writer) error { return jsonl.WriteAll(w, ds.Questions) }},
		{EvidenceFile, func(w io.Writer) error { return gold.WriteEvidence(w, ds.Evidence) }},
		{QrelsFile, func(w io.Writer) error { return trec.WriteQrels(w, ds.Qrels) }},
		{SummariesFile, func(w io.Writer) error { return jsonl.WriteAll(w, ds.Summaries) }},
	}
	for _, f := range writers {
		if err := writeFile(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}

// FileNames lists the paths, relative to the folder, that WriteDir writes.
func (ds *Dataset) FileNames() []string {
	names := []string{QuestionsFile, EvidenceFile, QrelsFile, SummariesFile}
	for _, s := range ds.Sources {
		names = append(names, filepath.Join(SourcesDir, s.Name), filepath.Join(TextDir, s.TextName()))
	}
	slices.Sort(names)
	return names
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
