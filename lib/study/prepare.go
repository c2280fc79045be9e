package study

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/ingest"
)

// record hashes a data file into s.Inputs under its path in the data folder.
func record(s *Study, path string) error {
	rel, err := filepath.Rel(s.Opts.DataDir, path)
	if err != nil {
		rel = path
	}
	in, err := HashInput(path, filepath.ToSlash(rel))
	if err != nil {
		return err
	}
	s.Inputs = append(s.Inputs, in)
	return nil
}

// ingestSources ingests the folder's sources/ under Options.Chunking and
// loads the stored chunks.
func ingestSources(s *Study) error {
	files, err := s.Folder.Sources()
	if err != nil {
		return err
	}
	if err := checkNoStaleSources(s, files); err != nil {
		return err
	}
	var firstErr error
	ingest.Files(s.Store, files, s.Opts.Chunking, func(i int, in ingest.Input, rep ingest.Report, err error) {
		if err == nil {
			err = recordSource(s, i, in.Path)
		}
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			return
		}
		fmt.Fprintf(s.Opts.Log, "  [%d/%d] %s: %s, %d messages, %d chunks\n", i+1, len(files), rep.Source, rep.Outcome, rep.Messages, rep.Chunks)
	})
	if firstErr != nil {
		return firstErr
	}
	chunks, err := s.Store.Chunks()
	if err != nil {
		return err
	}
	s.Chunks = chunks
	return nil
}

// checkNoStaleSources reports the sources stored in the database that are
// not among files (the folder's sources): a database reused after the folder
// lost a source would keep that source's chunks in every ranking.
func checkNoStaleSources(s *Study, files []ingest.Input) error {
	have := map[string]bool{}
	for _, in := range files {
		have[filepath.Base(in.Path)] = true
	}
	stored, err := s.Store.Sources()
	if err != nil {
		return err
	}
	var stale []string
	for _, src := range stored {
		if !have[src.Name] {
			stale = append(stale, src.Name)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%s holds sources that %s no longer has (%s): use a new database (remove %s, or the benchmark's --work folder)",
			s.Opts.DBPath, s.Folder.Path(datafolder.SourcesDir), strings.Join(stale, ", "), s.Opts.DBPath)
	}
	return nil
}

func importSummaries(s *Study) error {
	path := s.Folder.Path(datafolder.SummariesFile)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w (the summary representations need one summary per chunk)", err)
	}
	defer f.Close()
	if _, err := s.Store.ImportSummaries(path, f); err != nil {
		return err
	}
	if err := record(s, path); err != nil {
		return err
	}
	s.Summaries, err = s.Store.Summaries()
	return err
}

// loadQuestions reads the folder's questions and gold (datafolder's
// QuestionSet): qrels.txt as shipped, or evidence.jsonl resolved over the
// stored messages and chunks (Study.ResolvedGold).
func loadQuestions(s *Study) error {
	set, err := s.Folder.QuestionSet()
	if err != nil {
		return err
	}
	for _, path := range set.Files {
		if err := record(s, path); err != nil {
			return err
		}
	}
	s.Questions = set.Questions
	if set.Qrels != nil {
		s.Qrels, s.GoldReport = set.Qrels, "qrels.txt as shipped"
		return nil
	}
	s.evidence = set.Evidence
	_, rep, err := s.ResolvedGold()
	if err != nil {
		return err
	}
	s.GoldReport = fmt.Sprintf("resolved from evidence.jsonl: %d items exact, %d by excerpt, %d unmatched, %d in no chunk; %d rel-2 and %d rel-1 pairs; %d questions without primary gold",
		rep.Exact, rep.Excerpt, len(rep.Unmatched), len(rep.Unchunked), rep.Rel2, rep.Rel1, len(rep.NoPrimary))
	return nil
}
