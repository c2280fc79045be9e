package experiment

import (
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/represent"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
)

// Protocol is every choice of an evaluation that decides a reported number:
// the bootstrap (B resamples from Seed, percentile intervals at Level), the
// metrics and the one that selects the hybrid, the run depth, the sweep's
// weights and pairings, the single retrievers of Table 3, the BM25 tokenizer
// and the embedding input cap. Its values are used as given; PaperProtocol
// holds the paper's. The CLI's flag defaults, reproduce's options, the
// notebooks' parameter cells and results/manifest.json all read it, so a
// default is stated once.
type Protocol struct {
	B               int                 `json:"B"`                // bootstrap resamples, ≥ 1
	Seed            uint64              `json:"seed"`             // seed of the B × n resample matrix; 0 is a seed like any other
	Level           float64             `json:"level"`            // interval level, in (0, 1)
	Metrics         []string            `json:"metrics"`          // reported for every retriever, in table order (lib/metrics names)
	SelectionMetric string              `json:"selection_metric"` // its first maximum over the sweep selects the hybrid (spec §10)
	RunDepth        int                 `json:"run_depth"`        // ranked chunks kept per question and read by each fusion, ≥ 1
	Betas           []float64           `json:"beta_grid"`        // BM25 weights of the sweep, ascending
	Pairings        []retrieval.Pairing `json:"-"`                // pairings of the sweep, in selection order
	Singles         []string            `json:"singles"`          // single retrievers of Table 3, in row order
	Tokenizer       string              `json:"tokenizer"`        // BM25 tokenizer (lib/tokenize name)
	EmbeddingCap    int                 `json:"embedding_cap"`    // characters of a chunk's text sent to an embedder (spec §7)
}

// PaperProtocol returns the paper's protocol (spec §9–§10): B = 5,000
// resamples from seed 12,345 with 95% type-7 percentile intervals
// (lib/bootstrap's defaults); Recall@5, MRR@5, nDCG@5 and Success@5, the
// hybrid selected by Recall@5; top-200 runs (fusion.Depth); the 21 weights
// i/20 (fusion.BetaGrid) over the six pairings of retrieval.PaperPairings;
// the five single retrievers in Table 3's order; the paper's regular-expression
// tokenizer (tokenize.Default) and the 2,000-character embedding input cap
// (represent.DefaultEmbeddingCap). Each call returns fresh slices.
func PaperProtocol() Protocol {
	return Protocol{
		B:               bootstrap.DefaultB,
		Seed:            bootstrap.DefaultSeed,
		Level:           bootstrap.DefaultLevel,
		Metrics:         []string{metrics.Recall5, metrics.MRR5, metrics.NDCG5, metrics.Success5},
		SelectionMetric: metrics.Recall5,
		RunDepth:        fusion.Depth,
		Betas:           fusion.BetaGrid(),
		Pairings:        retrieval.PaperPairings[:],
		Singles:         paperSingles(),
		Tokenizer:       tokenize.Default,
		EmbeddingCap:    represent.DefaultEmbeddingCap,
	}
}

func paperSingles() []string {
	single := func(rep, method string) string { return retrieval.Single{Rep: rep, Method: method}.Name() }
	return []string{
		single(represent.RawText, retrieval.MethodBM25),
		single(represent.Summary, retrieval.MethodBM25),
		single(represent.Summary, retrieval.MethodVector),
		single(represent.EmbeddingTextRep, retrieval.MethodVector),
		single(represent.EmbeddingTextRep, retrieval.MethodBM25),
	}
}

// Validate reports the first field that cannot be used: B outside
// CheckBootstrap's range, RunDepth below 1, Level outside (0, 1), an unknown metric, tokenizer or pairing
// component, a selection metric that is not among Metrics, a weight outside
// [0, 1], or no pairings or weights.
func (p Protocol) Validate() error {
	if err := CheckBootstrap(p.B); err != nil {
		return fmt.Errorf("protocol: %w", err)
	}
	if !(p.Level > 0 && p.Level < 1) {
		return fmt.Errorf("protocol: interval level %g, want one in (0, 1)", p.Level)
	}
	if p.RunDepth < 1 {
		return fmt.Errorf("protocol: run depth %d, want at least 1", p.RunDepth)
	}
	selected := false
	for _, m := range p.Metrics {
		if _, err := metrics.Parse(m); err != nil {
			return fmt.Errorf("protocol: %w", err)
		}
		selected = selected || m == p.SelectionMetric
	}
	if !selected {
		return fmt.Errorf("protocol: selection metric %q is not among the metrics %v", p.SelectionMetric, p.Metrics)
	}
	if len(p.Betas) == 0 || len(p.Pairings) == 0 {
		return fmt.Errorf("protocol: no sweep configurations (%d pairings × %d weights)", len(p.Pairings), len(p.Betas))
	}
	for _, b := range p.Betas {
		if !(b >= 0 && b <= 1) {
			return fmt.Errorf("protocol: weight β = %g, want one in [0, 1]", b)
		}
	}
	for _, s := range p.Singles {
		if _, err := retrieval.ParseName(s); err != nil {
			return fmt.Errorf("protocol: %w", err)
		}
	}
	if !slices.Contains(tokenize.Names(), p.Tokenizer) {
		return fmt.Errorf("protocol: unknown tokenizer %q; known: %v", p.Tokenizer, tokenize.Names())
	}
	if p.EmbeddingCap < 1 {
		return fmt.Errorf("protocol: embedding cap %d characters, want at least 1", p.EmbeddingCap)
	}
	return nil
}

// PairingLabels returns the labels of Pairings, in order.
func (p Protocol) PairingLabels() []string {
	out := make([]string, len(p.Pairings))
	for i, pr := range p.Pairings {
		out[i] = pr.Label
	}
	return out
}

// Pairing returns the pairing labelled label.
func (p Protocol) Pairing(label string) (retrieval.Pairing, error) {
	for _, pr := range p.Pairings {
		if pr.Label == label {
			return pr, nil
		}
	}
	return retrieval.Pairing{}, fmt.Errorf("unknown pairing %q; expected one of %v", label, p.PairingLabels())
}
