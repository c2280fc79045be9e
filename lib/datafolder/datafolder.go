// Package datafolder is the layout of a data folder, laid out like
// data/synthetic/: the LINE exports under sources/, questions.jsonl, the
// gold as qrels.txt or as evidence.jsonl to resolve (lib/gold),
// summaries.jsonl and, optionally, shipped vectors. It holds the layout's
// file names (the only list of them), its one reader (Folder.Sources,
// Folder.QuestionSet) and its one writer (WriteFiles). `linemem reproduce`,
// the analyzer table (lib/analyzers), the converters (lib/datasets) and the
// synthetic corpus (lib/synth) all read and write folders through it.
//
// It imports the input floor's readers: lib/ingest (the exports),
// lib/questions, lib/trec and lib/gold.
package datafolder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

// Names of the files and folders of a data folder, relative to it.
const (
	SourcesDir          = "sources"         // LINE exports (.json by date or .txt), one per conversation
	TextDir             = "sources_txt"     // .txt exports of the same conversations (lib/synth); not read
	QuestionsFile       = "questions.jsonl" // one question per line (lib/questions)
	QrelsFile           = "qrels.txt"       // TREC qrels over chunk IDs; preferred to EvidenceFile
	EvidenceFile        = "evidence.jsonl"  // answer evidence by message, resolved to qrels by lib/gold
	SummariesFile       = "summaries.jsonl" // one summary per chunk
	SummaryVectorsFile  = "vectors_summary.jsonl"
	EmbeddingVectorFile = "vectors_embedding_text.jsonl"
	QueryVectorsFile    = "query_vectors.jsonl"
	// NoAnswerFile holds questions whose answer is not in the history
	// (LoCoMo category 5, LongMemEval `_abs`): an abstention set, never
	// retrieval questions.
	NoAnswerFile = "noanswer.jsonl"
	// DatasetFile records what the folder was converted from (file names,
	// sha256, sizes), the converter and its version, every mapping
	// decision's counts and every question dropped with the reason.
	DatasetFile = "dataset.json"
	// UsersDir holds one data folder per user when a conversion is split.
	UsersDir = "users"
)

// Folder is a data folder's path.
type Folder string

// Path is the path of the file name (a name of this package, or a
// slash-separated path under the folder) in f.
func (f Folder) Path(name string) string { return filepath.Join(string(f), filepath.FromSlash(name)) }

// Has reports whether f holds name.
func (f Folder) Has(name string) bool {
	_, err := os.Stat(f.Path(name))
	return err == nil
}

// Sources lists the exports under SourcesDir (ingest.Collect: .json and
// .txt files, in name order). Unreadable entries, or none at all, are an
// error naming the folder.
func (f Folder) Sources() ([]ingest.Input, error) {
	dir := f.Path(SourcesDir)
	inputs, problems := ingest.Collect([]string{dir})
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("%s: no .json or .txt exports", dir)
	}
	return inputs, nil
}

// QuestionSet is a folder's questions with their gold.
type QuestionSet struct {
	Questions []questions.Question
	// Qrels are QrelsFile's, or nil when the folder has none and the gold
	// must be resolved from Evidence.
	Qrels ranking.Qrels
	// Evidence is EvidenceFile's when Qrels is nil; nil otherwise.
	Evidence []gold.Evidence
	// Files are the paths read, in order: QuestionsFile, then QrelsFile or
	// EvidenceFile.
	Files []string
}

// QuestionSet reads f's questions and gold: QrelsFile when present
// (ReadQuestionSet's checks), else EvidenceFile, to be resolved over the
// folder's chunks (gold.Resolve). A folder with neither is an error.
func (f Folder) QuestionSet() (*QuestionSet, error) {
	qpath := f.Path(QuestionsFile)
	if f.Has(QrelsFile) {
		path := f.Path(QrelsFile)
		qs, qrels, _, err := ReadQuestionSet(qpath, path, trec.QrelsOptions{})
		if err != nil {
			return nil, err
		}
		return &QuestionSet{Questions: qs, Qrels: qrels, Files: []string{qpath, path}}, nil
	}
	qs, err := questions.ReadFile(qpath)
	if err != nil {
		return nil, err
	}
	if !f.Has(EvidenceFile) {
		return nil, fmt.Errorf("%s: neither %s nor %s", string(f), QrelsFile, EvidenceFile)
	}
	ev, _, err := f.Evidence()
	if err != nil {
		return nil, err
	}
	return &QuestionSet{Questions: qs, Evidence: ev, Files: []string{qpath, f.Path(EvidenceFile)}}, nil
}

// Evidence reads f's EvidenceFile; ok is false, and nothing read, without
// one.
func (f Folder) Evidence() (ev []gold.Evidence, ok bool, err error) {
	if !f.Has(EvidenceFile) {
		return nil, false, nil
	}
	ev, err = gold.ReadEvidenceFile(f.Path(EvidenceFile))
	return ev, err == nil, err
}

// ReadQuestionSet reads a question file and its qrels (trec.ReadQrelsWith
// under opts, whose warnings it returns) and checks that every qrels qid is
// a question (spec §11). A questions file without a question is an
// *inputerr.Error naming that file, line 1; an unknown qid is one naming the
// qrels file at the first line of the unknown qid that comes first in the
// file, with how many unknown qids there are, so the same input always gives
// the same message.
func ReadQuestionSet(questionsPath, qrelsPath string, opts trec.QrelsOptions) ([]questions.Question, ranking.Qrels, []inputerr.Error, error) {
	qs, err := questions.ReadFile(questionsPath)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(qs) == 0 {
		return nil, nil, nil, inputerr.At(questionsPath, 1, `at least one question, one JSON line {"qid", "question", …}; the file has none`)
	}
	file, err := trec.ReadQrelsFileWith(qrelsPath, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	known := make(map[string]bool, len(qs))
	for _, q := range qs {
		known[q.QID] = true
	}
	var unknown []string
	for qid := range file.Qrels {
		if !known[qid] {
			unknown = append(unknown, qid)
		}
	}
	if len(unknown) > 0 {
		sort.Slice(unknown, func(i, j int) bool { return file.FirstLine[unknown[i]] < file.FirstLine[unknown[j]] })
		first := unknown[0]
		more := ""
		if len(unknown) > 1 {
			more = fmt.Sprintf(" (%d qids of the qrels are not in the questions)", len(unknown))
		}
		return nil, nil, nil, inputerr.Atf(qrelsPath, file.FirstLine[first], "a qid of %s, got %q%s", questionsPath, first, more)
	}
	return qs, file.Qrels, file.Warnings, nil
}

// WriteFiles writes a data folder into dir: each file of files (path
// relative to dir, with "/" separators → content) in byte order of the
// paths, with its folders created (0755) as needed and the file written
// 0644, replacing a file of the same name. Nothing else in dir is touched.
// It is the one writer of the data folder layout, for converted and for
// synthetic folders.
func WriteFiles(dir string, files map[string][]byte) error {
	for _, name := range FileNames(files) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// FileNames lists the paths of files in byte order.
func FileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
