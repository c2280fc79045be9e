package reproduce

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"

	"gonum.org/v1/plot"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ingest"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

// PerQuestionFile is the per-question metrics CSV: question IDs and types
// only, never question or chat text (as the paper released).
const PerQuestionFile = "per_question_metrics.csv"

// ManifestFile records inputs, parameters, versions and outputs.
const ManifestFile = "manifest.json"

// CeilingBaseName names the candidate-ceiling table files (no paper number).
const CeilingBaseName = "ceiling_candidates"

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

// Tables returns the paper's tables in order (1, 3–9).
func (s *Study) Tables() ([]report.Table, error) {
	t1 := s.Table1()
	out := []report.Table{t1}
	for _, f := range []func() (report.Table, error){s.Table3, s.Table4, s.Table5, s.Table6, s.Table7, s.Table8, s.Table9} {
		t, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// Figures returns the paper's figures in order (1–6).
func (s *Study) Figures() ([]Figure, error) {
	var out []Figure
	for _, f := range []func() (Figure, error){s.Figure1, s.Figure2, s.Figure3, s.Figure4, s.Figure5, s.Figure6} {
		fig, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, fig)
	}
	return out, nil
}

// WriteAll writes every table, figure, the ceiling table, the analyses beyond
// the paper (TokenizersSlug, FusionSlug, HeldOutSlug and AggregateSlug tables,
// TokenizersFigureSlug and FusionFigureSlug figures), the per-question
// metrics and the manifest into outDir.
func (s *Study) WriteAll(outDir string) ([]string, error) {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	err := s.timed("tables", func() error {
		tables, err := s.Tables()
		if err != nil {
			return err
		}
		ceiling, err := s.CeilingTable()
		if err != nil {
			return err
		}
		for _, t := range append(tables, ceiling) {
			paths, err := WriteTable(t, outDir)
			if err != nil {
				return fmt.Errorf("%s: %w", t.BaseName(), err)
			}
			written = append(written, paths...)
		}
		return nil
	})
	if err != nil {
		return written, err
	}
	err = s.timed("figures", func() error {
		figs, err := s.Figures()
		if err != nil {
			return err
		}
		w, h := s.Opts.FigureSize()
		for _, f := range figs {
			paths, err := report.SaveFigure(f.Plot, outDir, f.BaseName(), w, h)
			if err != nil {
				return fmt.Errorf("%s: %w", f.BaseName(), err)
			}
			written = append(written, paths...)
			path := filepath.Join(outDir, f.BaseName()+CaptionExt)
			if err := os.WriteFile(path, []byte(f.Caption()+"\n"), 0o644); err != nil {
				return err
			}
			written = append(written, path)
		}
		return nil
	})
	if err != nil {
		return written, err
	}
	err = s.timed("beyond the paper (tokenizers, fusion rules, held-out selection, aggregate remedies)", func() error {
		paths, err := s.writeBeyond(outDir)
		written = append(written, paths...)
		return err
	})
	if err != nil {
		return written, err
	}
	path := filepath.Join(outDir, PerQuestionFile)
	if err := s.writePerQuestion(path); err != nil {
		return written, err
	}
	written = append(written, path)
	path = filepath.Join(outDir, ManifestFile)
	if err := s.writeManifest(path, written); err != nil {
		return written, err
	}
	return append(written, path), nil
}

// writeBeyond writes the unnumbered tables and figures of beyond.go: tables
// first, then figures, each under its slug.
func (s *Study) writeBeyond(outDir string) ([]string, error) {
	tok, err := s.CompareTokenizers()
	if err != nil {
		return nil, err
	}
	fus, err := s.CompareFusion()
	if err != nil {
		return nil, err
	}
	held, err := s.HeldOutSelection(HeldOutSplits, s.Protocol.Seed)
	if err != nil {
		return nil, err
	}
	agg, err := s.AggregateRemedies()
	if err != nil {
		return nil, err
	}
	written, err := s.writeBeyond2(outDir)
	if err != nil {
		return written, err
	}
	for _, t := range []report.Table{s.tokenizerTable(tok), fusionTable(fus), heldOutTable(held), agg} {
		paths, err := WriteTable(t, outDir)
		written = append(written, paths...)
		if err != nil {
			return written, fmt.Errorf("%s: %w", t.BaseName(), err)
		}
	}
	for _, f := range []struct {
		slug string
		plot func() (*plot.Plot, error)
	}{{TokenizersFigureSlug, func() (*plot.Plot, error) { return tokenizerFigure(tok) }}, {FusionFigureSlug, func() (*plot.Plot, error) { return fusionFigure(fus) }}} {
		p, err := f.plot()
		if err != nil {
			return written, fmt.Errorf("%s: %w", f.slug, err)
		}
		w, h := s.Opts.FigureSize()
		paths, err := report.SaveFigure(p, outDir, f.slug, w, h)
		written = append(written, paths...)
		if err != nil {
			return written, fmt.Errorf("%s: %w", f.slug, err)
		}
	}
	return s.writeAnswers(outDir, written)
}

// perQuestionEvaluations are the runs whose per-question scores are released:
// the single retrievers, the selected hybrid and the summary hybrid.
func (s *Study) perQuestionEvaluations() ([]*experiment.Evaluation, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	best, _, err := s.Selected()
	if err != nil {
		return nil, err
	}
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return nil, err
	}
	evs := append(append([]*experiment.Evaluation(nil), singles...), best)
	if sh.Name != best.Name {
		evs = append(evs, sh)
	}
	return evs, nil
}

func (s *Study) writePerQuestion(path string) error {
	evs, err := s.perQuestionEvaluations()
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	header := append([]string{"qid", "type", "retriever"}, s.Protocol.Metrics...)
	w.Write(header)
	for _, ev := range evs {
		res := ev.Result
		for i, qid := range res.QIDs {
			row := []string{qid, res.Types[i], ev.Name}
			for _, m := range s.Protocol.Metrics {
				row = append(row, strconv.FormatFloat(res.Scores(m)[i], 'g', -1, 64))
			}
			w.Write(row)
		}
	}
	w.Flush()
	err = w.Error()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Manifest records what a reproduction read, how it computed, with what, and
// what it wrote. Code is the content hash of the source (CodeHash), not a
// commit, so a manifest committed beside its results stays true and a
// drift check compares every field.
type Manifest struct {
	Generator  string            `json:"generator"`
	Code       Code              `json:"code"`
	Data       []InputFile       `json:"data"`
	Parameters map[string]any    `json:"parameters"`
	Versions   map[string]string `json:"versions"`
	Selected   map[string]any    `json:"selected"`
	Outputs    []InputFile       `json:"outputs"`
}

func (s *Study) writeManifest(path string, outputs []string) error {
	_, cfg, err := s.Selected()
	if err != nil {
		return err
	}
	sw, err := s.Sweep()
	if err != nil {
		return err
	}
	p := s.Protocol
	m := Manifest{
		Generator: "linemem reproduce",
		Code:      codeOf(),
		Data:      s.Inputs,
		Parameters: map[string]any{
			"chunking":        s.Opts.Chunking,
			"tokenizer":       p.Tokenizer,
			"embed_model":     s.EmbedModel,
			"embed_input_cap": embedCap(s),
			"bootstrap":       map[string]any{"B": p.B, "seed": p.Seed, "level": p.Level, "generator": bootstrap.Generator, "percentile": "type 7"},
			"run_depth":       p.RunDepth,
			"hybrid":          fmt.Sprintf("linear min–max over each component's top %d; s = (1 − β)·vec' + β·bm25'", fusion.Depth),
			"beta_grid":       p.Betas,
			"pairings":        p.PairingLabels(),
			"selection":       "first configuration, in pairing order then β ascending, attaining the maximum " + p.SelectionMetric,
			"metrics":         p.Metrics,
			"questions":       len(s.Questions),
			"evaluated":       s.evaluated(),
			"gold":            s.GoldReport,
			"summary_pairing": SummaryPairing,
			"topk_cutoffs":    TopKCutoffs,
			"sweep_configs":   len(sw.Configs),
			"beyond": map[string]any{
				"tokenizers":     tokenize.ReproduceNames(),
				"fusion":         []string{"linear min–max at the selected β", "rrf K = 60", "z-score at every β"},
				"heldout_splits": HeldOutSplits,
				"heldout_seed":   p.Seed,
				"heldout_split":  "math/rand/v2 PCG(seed, seed), split r = r-th Perm(n), first ⌊n/2⌋ select, rest held out",
				"answers":        answersParameters(),
			},
			"beyond_round_two": beyond2Parameters(),
		},
		Versions: versions(),
		Selected: map[string]any{"name": cfg.Name, metrics.Recall5: cfg.Result.Mean[metrics.Recall5], metrics.MRR5: cfg.Result.Mean[metrics.MRR5], metrics.NDCG5: cfg.Result.Mean[metrics.NDCG5]},
	}
	for _, path := range outputs {
		sum, n, err := ingest.HashFile(path)
		if err != nil {
			return err
		}
		m.Outputs = append(m.Outputs, InputFile{filepath.Base(path), sum, n})
	}
	return report.WriteJSON(path, m)
}

func embedCap(s *Study) any {
	if s.EmbedModel == ImportedModel {
		return "as shipped"
	}
	return s.Protocol.EmbeddingCap
}

// versions lists the Go toolchain and the modules that shape the results,
// all of which every program calling this package links (no provider SDK:
// reproduce calls none, and listing one would make the CLI and the notebooks
// disagree).
func versions() map[string]string {
	v := map[string]string{"go": runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	wanted := []string{"gonum.org/v1/gonum", "gonum.org/v1/plot", "modernc.org/sqlite", "github.com/ikawaha/kagome/v2", "github.com/ikawaha/kagome-dict/ipa", "golang.org/x/text"}
	sort.Strings(wanted)
	for _, dep := range info.Deps {
		for _, w := range wanted {
			if dep.Path == w {
				v[w] = dep.Version
			}
		}
	}
	return v
}

// WriteTable writes t into outDir as CSV, Markdown and LaTeX, the LaTeX with
// the single retrievers' short labels (S-BM25, E-Vec, …) and their legend, so
// that every table fits a one-column page. Notebooks write tables through it
// too, so their files are the bytes `linemem reproduce` writes.
func WriteTable(t report.Table, outDir string) ([]string, error) {
	for _, s := range retrieval.Singles() {
		t.Abbreviations = append(t.Abbreviations, report.Abbreviation{Full: s.Name(), Short: s.Short()})
	}
	return t.WriteFiles(outDir)
}
