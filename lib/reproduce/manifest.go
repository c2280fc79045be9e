package reproduce

import (
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"

	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/study"
	"github.com/linemem/linemem/lib/tokenize"
)

// ManifestFile records inputs, parameters, versions and outputs.
const ManifestFile = "manifest.json"

// Manifest records what a reproduction read, how it computed, with what, and
// what it wrote. Code is the content hash of the source (CodeHash), not a
// commit, so a manifest committed beside its results stays true and a
// drift check compares every field.
type Manifest struct {
	Generator  string            `json:"generator"`
	Code       Code              `json:"code"`
	Data       []study.InputFile `json:"data"`
	Parameters map[string]any    `json:"parameters"`
	Versions   map[string]string `json:"versions"`
	Selected   map[string]any    `json:"selected"`
	Outputs    []study.InputFile `json:"outputs"`
}

func writeManifest(s *Study, path string, outputs []string) error {
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
			"hybrid":          fmt.Sprintf("linear min–max over each component's top %d; s = (1 − β)·vec' + β·bm25'", experiment.ComponentDepth),
			"beta_grid":       p.Betas,
			"pairings":        p.PairingLabels(),
			"selection":       "first configuration, in pairing order then β ascending, attaining the maximum " + p.SelectionMetric,
			"metrics":         p.Metrics,
			"questions":       len(s.Questions),
			"evaluated":       evaluated(s),
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
			"beyond_expansion_and_selection": expansionAndSelectionParameters(s),
		},
		Versions: versions(),
		Selected: map[string]any{"name": cfg.Name},
	}
	for _, metric := range intervalMetrics(s.Protocol) {
		m.Selected[metric] = cfg.Result.Mean[metric]
	}
	for _, path := range outputs {
		out, err := study.HashInput(path, filepath.Base(path))
		if err != nil {
			return err
		}
		m.Outputs = append(m.Outputs, out)
	}
	return report.WriteJSON(path, m)
}

func embedCap(s *Study) any {
	if s.EmbedModel == study.ImportedModel {
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

// expansionAndSelectionParameters records the settings of query expansion,
// the ablation, nested cross-validation, the selection-aware bootstrap and
// Holm's correction in the manifest.
func expansionAndSelectionParameters(s *Study) map[string]any {
	set := beyond.Settings()
	return map[string]any{
		"expanders":           beyond.OfflineExpanders,
		"rm3":                 map[string]any{"feedback_docs": set.FeedbackDocs, "feedback_terms": set.FeedbackTerms, "original_weight": set.OriginalWeight},
		"multi_merge":         fmt.Sprintf("rrf K = %d, question weight 1, each of m sub-queries 1/m", set.MultiRRFK),
		"decompose_prompt":    set.PromptVersion,
		"ablation_variants":   ablationVariantNames(),
		"ablation_methods":    append(append([]string(nil), beyond.AblationTokenizers...), beyond.AblationVector),
		"nested_cv_folds":     beyond.NestedFolds,
		"nested_cv_split":     "math/rand/v2 PCG(seed, seed), position Perm(n)[i] → fold i mod k",
		"selection_bootstrap": "selection redone in every resample of the shared B × n matrix; out-of-bag gain on undrawn questions",
		"holm":                "two-sided paired bootstrap p-values, Holm step-down across each table's comparisons",
	}
}

// answersParameters records the settings of beyond.Answers for the manifest.
func answersParameters() map[string]any {
	set := beyond.AnswersSettings()
	return map[string]any{
		"k":                    set.K,
		"retrievers":           beyond.AnswerRetrievers,
		"answerer":             set.Answerer,
		"extractive_tokenizer": set.ExtractiveTokenizer,
		"f1_tokenizer":         answereval.DefaultTokenizer,
		"metrics":              answereval.Metrics,
	}
}
