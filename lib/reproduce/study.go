// Package reproduce runs the paper's whole pipeline on a data folder laid out
// like data/synthetic/ (sources/, questions.jsonl, qrels.txt or evidence.jsonl,
// summaries.jsonl, optionally precomputed vectors) and writes every table and
// figure of the paper, a per-question metrics CSV holding question IDs only,
// and manifest.json.
//
// The pipeline is split into steps that notebooks call one at a time:
// Prepare (ingest, representations, vectors, questions and gold) returns a
// Study; its methods evaluate the single retrievers (RQ1), sweep the hybrids
// (RQ2), analyse failures (RQ3) and build each artefact as a report.Table or
// a figure. Run does all of it and writes the files.
package reproduce

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// Names of the files in a data folder.
const (
	SourcesDir          = "sources"
	QuestionsFile       = "questions.jsonl"
	QrelsFile           = "qrels.txt"
	EvidenceFile        = "evidence.jsonl"
	SummariesFile       = "summaries.jsonl"
	SummaryVectorsFile  = "vectors_summary.jsonl"
	EmbeddingVectorFile = "vectors_embedding_text.jsonl"
	QueryVectorsFile    = "query_vectors.jsonl"
)

// ImportedModel names vectors that ship with a data folder when no
// --embed-model is given.
const ImportedModel = "data-vectors"

// Options configure a reproduction. The zero value of each field means the
// paper's setting; Tokenizer, B and Seed override those of
// experiment.PaperProtocol (a zero B or Seed, or an empty Tokenizer, keeps
// the paper's).
type Options struct {
	DataDir    string
	DBPath     string           // the database; reused by reruns
	Tokenizer  string           // BM25 tokenizer; the protocol's when ""
	EmbedModel string           // vectors to use; "" → shipped vectors, else the local embedder
	Chunking   chunking.Options // zero value → chunking.DefaultOptions()
	B          int              // bootstrap resamples; the protocol's when 0
	Seed       uint64           // bootstrap seed; the protocol's when 0
	Log        io.Writer        // progress; nil discards
	// AllowMissingGold turns a qrels chunk ID absent from the corpus from
	// an input error into a warning (it still counts in the denominators).
	AllowMissingGold bool
	// SourceNames lists source files by name in the manifest (a private
	// mode: export names carry chat partners' names); by default a source
	// is "sources/#NNN" with its hash and size.
	SourceNames bool
	// ColumnFigures draws figures at one column's size
	// (report.ColumnWidth × report.ColumnHeight) instead of the text width
	// (report.DefaultWidth × report.DefaultHeight).
	ColumnFigures bool
}

// FigureSize is the width and height every figure is saved at.
func (o Options) FigureSize() (width, height vg.Length) {
	if o.ColumnFigures {
		return report.ColumnWidth, report.ColumnHeight
	}
	return report.DefaultWidth, report.DefaultHeight
}

// Protocol returns experiment.PaperProtocol with the options' overrides.
func (o Options) Protocol() experiment.Protocol {
	p := experiment.PaperProtocol()
	if o.Tokenizer != "" {
		p.Tokenizer = o.Tokenizer
	}
	if o.B != 0 {
		p.B = o.B
	}
	if o.Seed != 0 {
		p.Seed = o.Seed
	}
	return p
}

// defaults fills every zero field with the paper's setting.
func (o *Options) defaults() {
	p := o.Protocol()
	o.Tokenizer, o.B, o.Seed = p.Tokenizer, p.B, p.Seed
	if o.Chunking == (chunking.Options{}) {
		o.Chunking = chunking.DefaultOptions()
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// InputFile is one data file with its SHA-256, for the manifest.
type InputFile struct {
	Path   string `json:"path"` // relative to the data folder, slash-separated
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Study is a prepared corpus with its question set: what every later step
// evaluates. Results of the steps are cached on it.
type Study struct {
	Opts       Options
	Protocol   experiment.Protocol // Opts.Protocol(); Setup evaluates under it
	Store      *store.Store
	Chunks     []chat.Chunk
	Summaries  map[string]string
	Questions  []questions.Question
	Qrels      ranking.Qrels
	EmbedModel string
	Builder    *retrieval.Builder
	Setup      *experiment.Setup
	Inputs     []InputFile
	Stats      store.Stats
	GoldReport string // how the qrels were obtained
	Timings    []Timing

	singles []*experiment.Evaluation
	sweep   *experiment.Sweep
	scored  map[string]*experiment.Evaluation // sweep configurations evaluated with intervals, by name
}

// Timing records how long a step took (printed, never written to results).
type Timing struct {
	Step     string
	Duration time.Duration
}

func (s *Study) timed(step string, f func() error) error {
	start := time.Now()
	fmt.Fprintf(s.Opts.Log, "reproduce: %s …\n", step)
	err := f()
	d := time.Since(start)
	s.Timings = append(s.Timings, Timing{step, d})
	if err == nil {
		fmt.Fprintf(s.Opts.Log, "reproduce: %s done in %s\n", step, d.Round(time.Millisecond))
	}
	return err
}

// Prepare ingests the data folder into the database (unchanged sources are
// skipped), imports summaries, provides vectors (shipped ones, or the local
// embedder's), reads questions and gold (qrels.txt, or resolved from
// evidence.jsonl), and returns the Study. Close it when done.
func Prepare(opts Options) (*Study, error) {
	opts.defaults()
	if opts.DataDir == "" || opts.DBPath == "" {
		return nil, fmt.Errorf("reproduce: a data folder and a database path are required")
	}
	if err := os.MkdirAll(filepath.Dir(opts.DBPath), 0o755); err != nil {
		return nil, err
	}
	st, err := store.Open(opts.DBPath)
	if err != nil {
		return nil, err
	}
	s := &Study{Opts: opts, Protocol: opts.Protocol(), Store: st}
	if err := s.Protocol.Validate(); err != nil {
		st.Close()
		return nil, err
	}
	steps := []struct {
		name string
		f    func() error
	}{
		{"ingest " + filepath.Join(opts.DataDir, SourcesDir), s.ingest},
		{"summaries", s.importSummaries},
		{"questions and gold", s.loadQuestions},
		{"vectors", s.provideVectors},
	}
	for _, step := range steps {
		if err := s.timed(step.name, step.f); err != nil {
			st.Close()
			return nil, err
		}
	}
	if s.Stats, err = st.Stats(); err != nil {
		st.Close()
		return nil, err
	}
	if err := s.validate(); err != nil {
		st.Close()
		return nil, err
	}
	s.Builder = retrieval.NewBuilder(retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, st, retrieval.Options{Tokenizer: s.Protocol.Tokenizer, EmbedModel: s.EmbedModel})
	s.Setup = &experiment.Setup{Questions: s.Questions, Qrels: s.Qrels, Builder: s.Builder, Protocol: s.Protocol}
	return s, nil
}

// Close closes the database.
func (s *Study) Close() error { return s.Store.Close() }

func (s *Study) dataPath(name string) string { return filepath.Join(s.Opts.DataDir, name) }

func (s *Study) exists(name string) bool {
	_, err := os.Stat(s.dataPath(name))
	return err == nil
}

// record hashes a data file for the manifest.
func (s *Study) record(path string) error {
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

func (s *Study) ingest() error {
	files, problems := ingest.Collect([]string{s.dataPath(SourcesDir)})
	if len(problems) > 0 {
		return problems[0]
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no .json or .txt exports", s.dataPath(SourcesDir))
	}
	if err := s.checkNoStaleSources(files); err != nil {
		return err
	}
	var firstErr error
	ingest.Files(s.Store, files, s.Opts.Chunking, func(i int, in ingest.Input, rep ingest.Report, err error) {
		if err == nil {
			err = s.recordSource(i, in.Path)
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
func (s *Study) checkNoStaleSources(files []ingest.Input) error {
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
			s.Opts.DBPath, s.dataPath(SourcesDir), strings.Join(stale, ", "), s.Opts.DBPath)
	}
	return nil
}

func (s *Study) importSummaries() error {
	path := s.dataPath(SummariesFile)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w (the summary representations need one summary per chunk)", err)
	}
	defer f.Close()
	if _, err := s.Store.ImportSummaries(path, f); err != nil {
		return err
	}
	if err := s.record(path); err != nil {
		return err
	}
	s.Summaries, err = s.Store.Summaries()
	return err
}

func (s *Study) loadQuestions() error {
	qpath := s.dataPath(QuestionsFile)
	if s.exists(QrelsFile) {
		path := s.dataPath(QrelsFile)
		qs, qrels, err := experiment.LoadQuestionSet(qpath, path)
		if err != nil {
			return err
		}
		s.Questions, s.Qrels, s.GoldReport = qs, qrels, "qrels.txt as shipped"
		if err := s.record(qpath); err != nil {
			return err
		}
		return s.record(path)
	}
	qs, err := questions.ReadFile(qpath)
	if err != nil {
		return err
	}
	if err := s.record(qpath); err != nil {
		return err
	}
	s.Questions = qs
	if !s.exists(EvidenceFile) {
		return fmt.Errorf("%s: neither %s nor %s", s.Opts.DataDir, QrelsFile, EvidenceFile)
	}
	return s.resolveGold()
}

// resolveGold builds qrels from evidence.jsonl with lib/gold over the stored
// messages and chunks.
func (s *Study) resolveGold() error {
	path := s.dataPath(EvidenceFile)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	ev, err := gold.ReadEvidence(path, f)
	if err != nil {
		return err
	}
	if err := s.record(path); err != nil {
		return err
	}
	sources, err := s.Store.Sources()
	if err != nil {
		return err
	}
	var msgs []chat.Message
	for _, src := range sources {
		m, err := s.Store.Messages(src.Name)
		if err != nil {
			return err
		}
		msgs = append(msgs, m...)
	}
	qrels, rep := gold.Resolve(ev, msgs, s.Chunks)
	s.Qrels = qrels
	s.GoldReport = fmt.Sprintf("resolved from evidence.jsonl: %d items exact, %d by excerpt, %d unmatched, %d in no chunk; %d rel-2 and %d rel-1 pairs; %d questions without primary gold",
		rep.Exact, rep.Excerpt, len(rep.Unmatched), len(rep.Unchunked), rep.Rel2, rep.Rel1, len(rep.NoPrimary))
	return nil
}

// ChunkSpans locates every chunk by source and first/last date, for the
// aggregate diagnostics.
func (s *Study) ChunkSpans() map[string]analysis.ChunkSpan {
	spans := make(map[string]analysis.ChunkSpan, len(s.Chunks))
	for _, c := range s.Chunks {
		spans[c.ID] = analysis.ChunkSpan{Source: c.Source, FirstDate: c.StartAt[:10], LastDate: c.EndAt[:10]}
	}
	return spans
}

// QuestionCounts counts questions by type in questions.Types order, then
// other types alphabetically.
func (s *Study) QuestionCounts() ([]string, map[string]int) {
	counts := map[string]int{}
	for _, q := range s.Questions {
		counts[q.Type]++
	}
	order := append([]string(nil), questions.Types...)
	var extra []string
	for t := range counts {
		known := false
		for _, k := range questions.Types {
			known = known || k == t
		}
		if !known {
			extra = append(extra, t)
		}
	}
	sort.Strings(extra)
	return append(order, extra...), counts
}
