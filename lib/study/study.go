// Package study prepares a data folder for the paper's protocol: a folder
// laid out like data/synthetic/ (lib/datafolder: sources/, questions.jsonl,
// qrels.txt or evidence.jsonl, summaries.jsonl, optionally shipped vectors)
// ingested into a store, with its summaries, questions, gold and vectors,
// and the protocol run over it (an experiment.Outcome, computed on demand).
//
// Prepare returns that Study; every input file it read is recorded with its
// SHA-256 (Study.Inputs) for a run's manifest. lib/reproduce lays a Study's
// results out as tables and figures; this package lays nothing out.
package study

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// ImportedModel names vectors that ship with a data folder when no
// --embed-model is given.
const ImportedModel = "data-vectors"

// Options configure the preparation of a study. Protocol and Chunking are
// used as given: experiment.PaperProtocol() and chunking.DefaultOptions() are
// the paper's, and a zero B or Seed is a zero (Prepare refuses B = 0; seed 0
// is a seed like any other).
type Options struct {
	DataDir    string
	DBPath     string              // the database; reused by reruns
	EmbedModel string              // vectors to use; "" → shipped vectors, else the local embedder
	Protocol   experiment.Protocol // B, seed, level, metrics, selection, β grid, pairings, tokenizer, cap
	Chunking   chunking.Options    // how sources are chunked
	Log        io.Writer           // progress; nil discards
	// AllowMissingGold turns a qrels chunk ID absent from the corpus from
	// an input error into a warning (it still counts in the denominators).
	AllowMissingGold bool
	// SourceNames records source files by name in Study.Inputs (a private
	// mode: export names carry chat partners' names); by default a source
	// is SourceLabel(i) with its hash and size.
	SourceNames bool
}

// PaperOptions returns the options of the paper's protocol over the data
// folder dataDir and the database dbPath: experiment.PaperProtocol() and
// chunking.DefaultOptions(), shipped vectors, no log.
func PaperOptions(dataDir, dbPath string) Options {
	return Options{DataDir: dataDir, DBPath: dbPath, Protocol: experiment.PaperProtocol(), Chunking: chunking.DefaultOptions()}
}

// InputFile is one file with its SHA-256 and size, as a manifest lists it.
type InputFile struct {
	Path   string `json:"path"` // relative to the data folder (or the output folder), slash-separated
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// HashInput returns the InputFile of the file at path under the name name
// (ingest.HashFile: the hash ingest compares sources by).
func HashInput(path, name string) (InputFile, error) {
	sum, n, err := ingest.HashFile(path)
	if err != nil {
		return InputFile{}, err
	}
	return InputFile{name, sum, n}, nil
}

// Study is a prepared corpus with its question set. The protocol run
// (Outcome: single retrievers, the sweep, scored configurations) and the
// stored messages, evidence and resolved gold are computed on first use and
// kept on it.
type Study struct {
	Opts       Options
	Protocol   experiment.Protocol // Opts.Protocol; Setup evaluates under it
	Store      *store.Store
	Chunks     []chat.Chunk
	Summaries  map[string]string
	Questions  []questions.Question
	Qrels      ranking.Qrels
	EmbedModel string
	Builder    *retrieval.Builder
	Setup      *experiment.Setup
	Outcome    *experiment.Outcome // the protocol run on Setup: singles, sweep, selection
	Folder     datafolder.Folder   // Opts.DataDir
	Inputs     []InputFile         // every data file read, in reading order
	Stats      store.Stats
	GoldReport string // how the qrels were obtained
	Timings    []Timing

	evidence []gold.Evidence // read by loadQuestions when the gold is resolved from it
	cache    Cache           // results of Cached, by key
}

// Timing records how long a step took (printed, never written to results).
type Timing struct {
	Step     string
	Duration time.Duration
}

// Timed runs f as the step named step: it logs the step's start and, on
// success, its duration on Options.Log, and appends its Timing to Timings
// (experiment.Outcome's Step, and each artefact a layout writes).
func (s *Study) Timed(step string, f func() error) error {
	start := time.Now()
	fmt.Fprintf(s.Opts.Log, "%s …\n", step)
	err := f()
	d := time.Since(start)
	s.Timings = append(s.Timings, Timing{step, d})
	if err == nil {
		fmt.Fprintf(s.Opts.Log, "%s done in %s\n", step, d.Round(time.Millisecond))
	}
	return err
}

// Cache holds results computed once for a study, by key (Cached). Its zero
// value is empty and ready.
type Cache struct{ values map[string]any }

// Cached returns the value c holds under key, or computes it with f and
// keeps it when f succeeds (an error is returned and not kept). A key holds
// one type: the value is asserted to T.
func Cached[T any](c *Cache, key string, f func() (T, error)) (T, error) {
	if v, ok := c.values[key]; ok {
		return v.(T), nil
	}
	v, err := f()
	if err != nil {
		return v, err
	}
	if c.values == nil {
		c.values = map[string]any{}
	}
	c.values[key] = v
	return v, nil
}

// Prepare ingests the data folder into the database (unchanged sources are
// skipped), imports summaries, provides vectors (shipped ones, or the local
// embedder's), reads questions and gold (qrels.txt, or resolved from
// evidence.jsonl), and returns the Study. opts.Protocol must pass
// experiment.Protocol.Validate. Close the Study when done.
func Prepare(opts Options) (*Study, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.DataDir == "" || opts.DBPath == "" {
		return nil, fmt.Errorf("study: a data folder and a database path are required")
	}
	if err := opts.Protocol.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(opts.DBPath), 0o755); err != nil {
		return nil, err
	}
	st, err := store.Open(opts.DBPath)
	if err != nil {
		return nil, err
	}
	s := &Study{Opts: opts, Protocol: opts.Protocol, Store: st, Folder: datafolder.Folder(opts.DataDir)}
	steps := []struct {
		name string
		f    func(*Study) error
	}{
		{"unit of the data folder", adoptFolderChunking},
		{"ingest " + s.Folder.Path(datafolder.SourcesDir), ingestSources},
		{"summaries", importSummaries},
		{"questions and gold", loadQuestions},
		{"vectors", provideVectors},
	}
	for _, step := range steps {
		if err := s.Timed(step.name, func() error { return step.f(s) }); err != nil {
			st.Close()
			return nil, err
		}
	}
	if s.Stats, err = st.Stats(); err != nil {
		st.Close()
		return nil, err
	}
	if err := validate(s); err != nil {
		st.Close()
		return nil, err
	}
	s.Builder = retrieval.NewBuilder(retrieval.Corpus{Chunks: s.Chunks, Summaries: s.Summaries}, st, retrieval.Options{Tokenizer: s.Protocol.Tokenizer, EmbedModel: s.EmbedModel})
	s.Setup = &experiment.Setup{Questions: s.Questions, Qrels: s.Qrels, Builder: s.Builder, Protocol: s.Protocol}
	s.Outcome = experiment.NewOutcome(s.Setup)
	s.Outcome.Step = s.Timed
	return s, nil
}

// Close closes the database.
func (s *Study) Close() error { return s.Store.Close() }

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

// MissingGold lists judged chunks absent from the corpus (spec §10: a
// warning; they still count in denominators).
func (s *Study) MissingGold() []metrics.GoldRef {
	corpus := make(map[string]bool, len(s.Chunks))
	for _, c := range s.Chunks {
		corpus[c.ID] = true
	}
	return metrics.MissingGold(s.Qrels, corpus)
}

// Messages returns every stored message, sources in store order, read once.
func (s *Study) Messages() ([]chat.Message, error) {
	return Cached(&s.cache, "messages", func() ([]chat.Message, error) { return storedMessages(s.Store) })
}

// Evidence returns the data folder's evidence.jsonl, read once; ok is false
// without one.
func (s *Study) Evidence() (ev []gold.Evidence, ok bool, err error) {
	if !s.Folder.Has(datafolder.EvidenceFile) {
		return nil, false, nil
	}
	ev, err = Cached(&s.cache, "evidence", func() ([]gold.Evidence, error) {
		if s.evidence != nil {
			return s.evidence, nil
		}
		ev, _, err := s.Folder.Evidence()
		return ev, err
	})
	return ev, err == nil, err
}

// ResolvedGold resolves the data folder's evidence.jsonl over the stored
// messages and chunks (gold.Resolve, its qrels and report), once per study:
// they are the Study's qrels when the folder ships no qrels.txt, and the
// evidence groups and the lossless comparison's paper chunking read the
// same resolution.
func (s *Study) ResolvedGold() (ranking.Qrels, gold.Report, error) {
	type resolved struct {
		qrels ranking.Qrels
		rep   gold.Report
	}
	r, err := Cached(&s.cache, "resolved gold", func() (resolved, error) {
		ev, ok, err := s.Evidence()
		if err != nil {
			return resolved{}, err
		}
		if !ok {
			return resolved{}, fmt.Errorf("%s: no %s to resolve gold from", s.Opts.DataDir, datafolder.EvidenceFile)
		}
		msgs, err := s.Messages()
		if err != nil {
			return resolved{}, err
		}
		qrels, rep := gold.Resolve(ev, msgs, s.Chunks)
		return resolved{qrels, rep}, nil
	})
	if err == nil && s.Qrels == nil {
		s.Qrels = r.qrels
	}
	return r.qrels, r.rep, err
}

// storedMessages returns every message of st, sources in store order.
func storedMessages(st *store.Store) ([]chat.Message, error) {
	sources, err := st.Sources()
	if err != nil {
		return nil, err
	}
	var msgs []chat.Message
	for _, src := range sources {
		m, err := st.Messages(src.Name)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m...)
	}
	return msgs, nil
}
