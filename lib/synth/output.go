package synth

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/trec"
)

// WriteDir writes the dataset into dir (created if missing) with
// datafolder.WriteFiles: sources/*.json, sources_txt/*.txt, questions.jsonl,
// evidence.jsonl, qrels.txt and summaries.jsonl. Existing files of the same
// names are replaced; other files are left alone.
func (ds *Dataset) WriteDir(dir string) error {
	files, err := ds.Files()
	if err != nil {
		return err
	}
	return datafolder.WriteFiles(dir, files)
}

// Files renders the dataset's files: path relative to the folder ("/"
// separators) → content.
func (ds *Dataset) Files() (map[string][]byte, error) {
	files := make(map[string][]byte, 2*len(ds.Sources)+4)
	for _, s := range ds.Sources {
		files[path.Join(datafolder.SourcesDir, s.Name)] = s.JSON
		files[path.Join(datafolder.TextDir, s.TextName())] = s.Text
	}
	writers := []struct {
		name  string
		write func(io.Writer) error
	}{
		{datafolder.QuestionsFile, func(w io.Writer) error { return jsonl.WriteAll(w, ds.Questions) }},
		{datafolder.EvidenceFile, func(w io.Writer) error { return gold.WriteEvidence(w, ds.Evidence) }},
		{datafolder.QrelsFile, func(w io.Writer) error { return trec.WriteQrels(w, ds.Qrels) }},
		{datafolder.SummariesFile, func(w io.Writer) error { return jsonl.WriteAll(w, ds.Summaries) }},
	}
	for _, f := range writers {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		files[f.name] = b.Bytes()
	}
	return files, nil
}

// FileNames lists the paths, relative to the folder, that WriteDir writes,
// in byte order.
func (ds *Dataset) FileNames() []string {
	names := []string{datafolder.QuestionsFile, datafolder.EvidenceFile, datafolder.QrelsFile, datafolder.SummariesFile}
	for _, s := range ds.Sources {
		names = append(names, path.Join(datafolder.SourcesDir, s.Name), path.Join(datafolder.TextDir, s.TextName()))
	}
	slices.Sort(names)
	return names
}
