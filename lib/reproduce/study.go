// Package reproduce lays the paper's tables and figures out, and those of
// the analyses beyond it, from a study of a data folder laid out like
// data/synthetic/ (lib/datafolder: sources/, questions.jsonl, qrels.txt or
// evidence.jsonl, summaries.jsonl, optionally precomputed vectors), and
// writes them with a per-question metrics CSV holding question IDs only and
// manifest.json.
//
// Prepare (ingest, representations, vectors, questions and gold) returns a
// Study: the shared state, with the protocol run every artefact reuses
// (Study.Outcome, an experiment.Outcome: single retrievers, the sweep, the
// selected hybrid, computed once on demand). The numbers come from
// lib/experiment and lib/beyond; this package computes none of them (the
// layout rule of docs/ARCHITECTURE.md). Each table, figure or file is an
// Artefact of the registry Artefacts, declared in a file named for what it
// makes; Build builds one by slug, Write writes one, and Study.WriteAll
// writes them all in registry order followed by the manifest. `linemem
// reproduce` and the notebooks call the same entries.
package reproduce

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/chunking"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// ImportedModel names vectors that ship with a data folder when no
// --embed-model is given.
const ImportedModel = "data-vectors"

// Options configure a reproduction. Protocol and Chunking are used as
// given: experiment.PaperProtocol() and chunking.DefaultOptions() are the
// paper's, and a zero B or Seed is a zero (Prepare refuses B = 0; seed 0 is
// a seed like any other).
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
	// SourceNames lists source files by name in the manifest (a private
	// mode: export names carry chat partners' names); by default a source
	// is "sources/#NNN" with its hash and size.
	SourceNames bool
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
// folder dataDir into the database dbPath: experiment.PaperProtocol() and
// chunking.DefaultOptions(), shipped vectors, no log.
func PaperOptions(dataDir, dbPath string) Options {
	return Options{DataDir: dataDir, DBPath: dbPath, Protocol: experiment.PaperProtocol(), Chunking: chunking.DefaultOptions()}
}

// savedOptions returns the options a saved run (Robustness.Save,
// Users.Save) records: the paper's protocol under its tokenizer, B and seed.
func savedOptions(tokenizer string, b int, seed uint64) Options {
	p := experiment.PaperProtocol()
	p.Tokenizer, p.B, p.Seed = tokenizer, b, seed
	return Options{Protocol: p, Chunking: chunking.DefaultOptions()}
}

// FigureSize is the width and height every figure is saved at.
func (o Options) FigureSize() (width, height vg.Length) {
	if o.ColumnFigures {
		return report.ColumnWidth, report.ColumnHeight
	}
	return report.DefaultWidth, report.DefaultHeight
}

// InputFile is one data file with its SHA-256, for the manifest.
type InputFile struct {
	Path   string `json:"path"` // relative to the data folder, slash-separated
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Study is a prepared corpus with its question set: the shared state every
// artefact reads. The evaluations artefacts share (single retrievers, the
// sweep, scored configurations, comparisons beyond the paper) are computed
// on first use and cached on it.
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
	Inputs     []InputFile
	Stats      store.Stats
	GoldReport string // how the qrels were obtained
	Timings    []Timing

	data     dataFolder
	evidence []gold.Evidence // read by loadQuestions when the gold is resolved from it
	cache    map[string]any  // results of cached, by key
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

// cached returns the value stored on s under key, or computes it with f and
// stores it when f succeeds (an error is returned and not kept).
func cached[T any](s *Study, key string, f func() (T, error)) (T, error) {
	if v, ok := s.cache[key]; ok {
		return v.(T), nil
	}
	v, err := f()
	if err != nil {
		return v, err
	}
	if s.cache == nil {
		s.cache = map[string]any{}
	}
	s.cache[key] = v
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
		return nil, fmt.Errorf("reproduce: a data folder and a database path are required")
	}
	if err := opts.Protocol.Validate(); err != nil {
		return nil, err
	}
	if err := checkArtefacts(opts.Protocol, opts.Artefacts); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(opts.DBPath), 0o755); err != nil {
		return nil, err
	}
	st, err := store.Open(opts.DBPath)
	if err != nil {
		return nil, err
	}
	s := &Study{Opts: opts, Protocol: opts.Protocol, Store: st, data: dataFolder{datafolder.Folder(opts.DataDir)}}
	steps := []struct {
		name string
		f    func(*Study) error
	}{
		{"unit of the data folder", adoptFolderChunking},
		{"ingest " + s.data.Path(datafolder.SourcesDir), ingestSources},
		{"summaries", importSummaries},
		{"questions and gold", loadQuestions},
		{"vectors", provideVectors},
	}
	for _, step := range steps {
		if err := s.timed(step.name, func() error { return step.f(s) }); err != nil {
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
	s.Outcome.Step = s.timed
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
	return cached(s, "messages", func() ([]chat.Message, error) { return storedMessages(s.Store) })
}

// Evidence returns the data folder's evidence.jsonl, read once; ok is false
// without one.
func (s *Study) Evidence() (ev []gold.Evidence, ok bool, err error) {
	if !s.data.Has(datafolder.EvidenceFile) {
		return nil, false, nil
	}
	ev, err = cached(s, "evidence", func() ([]gold.Evidence, error) {
		if s.evidence != nil {
			return s.evidence, nil
		}
		ev, _, err := s.data.Evidence()
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
	r, err := cached(s, "resolved gold", func() (resolved, error) {
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
