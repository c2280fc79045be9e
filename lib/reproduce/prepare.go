package reproduce

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/questions"
)

// dataFolder is a data folder laid out like data/synthetic/.
type dataFolder string

// path is the path of the file name in the folder.
func (d dataFolder) path(name string) string { return filepath.Join(string(d), name) }

// has reports whether the folder holds name.
func (d dataFolder) has(name string) bool {
	_, err := os.Stat(d.path(name))
	return err == nil
}

// record hashes a data file for the manifest.
func record(s *Study, path string) error {
	sum, n, err := ingest.HashFile(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(s.Opts.DataDir, path)
	if err != nil {
		rel = path
	}
	s.Inputs = append(s.Inputs, InputFile{filepath.ToSlash(rel), sum, n})
	return nil
}

// ingestSources ingests the folder's sources/ under Options.Chunking and
// loads the stored chunks.
func ingestSources(s *Study) error {
	files, problems := ingest.Collect([]string{s.data.path(SourcesDir)})
	if len(problems) > 0 {
		return problems[0]
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no .json or .txt exports", s.data.path(SourcesDir))
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
			s.Opts.DBPath, s.data.path(SourcesDir), strings.Join(stale, ", "), s.Opts.DBPath)
	}
	return nil
}

func importSummaries(s *Study) error {
	path := s.data.path(SummariesFile)
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

func loadQuestions(s *Study) error {
	qpath := s.data.path(QuestionsFile)
	if s.data.has(QrelsFile) {
		path := s.data.path(QrelsFile)
		qs, qrels, err := experiment.LoadQuestionSet(qpath, path)
		if err != nil {
			return err
		}
		s.Questions, s.Qrels, s.GoldReport = qs, qrels, "qrels.txt as shipped"
		if err := record(s, qpath); err != nil {
			return err
		}
		return record(s, path)
	}
	qs, err := questions.ReadFile(qpath)
	if err != nil {
		return err
	}
	if err := record(s, qpath); err != nil {
		return err
	}
	s.Questions = qs
	if !s.data.has(EvidenceFile) {
		return fmt.Errorf("%s: neither %s nor %s", s.Opts.DataDir, QrelsFile, EvidenceFile)
	}
	return resolveGold(s)
}

// resolveGold builds qrels from evidence.jsonl with lib/gold over the stored
// messages and chunks.
func resolveGold(s *Study) error {
	path := s.data.path(EvidenceFile)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ev, err := gold.ReadEvidence(path, f)
	if err != nil {
		return err
	}
	if err := record(s, path); err != nil {
		return err
	}
	msgs, err := storedMessages(s.Store)
	if err != nil {
		return err
	}
	qrels, rep := gold.Resolve(ev, msgs, s.Chunks)
	s.Qrels = qrels
	s.GoldReport = fmt.Sprintf("resolved from evidence.jsonl: %d items exact, %d by excerpt, %d unmatched, %d in no chunk; %d rel-2 and %d rel-1 pairs; %d questions without primary gold",
		rep.Exact, rep.Excerpt, len(rep.Unmatched), len(rep.Unchunked), rep.Rel2, rep.Rel1, len(rep.NoPrimary))
	return nil
}
