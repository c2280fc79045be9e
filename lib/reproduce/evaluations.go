package reproduce

import (
	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/experiment"
)

// SummaryPairing is the pairing of the paper's auxiliary failure analysis
// (§7.3): summary_bm25 + summary_vector, at its best β.
const SummaryPairing = "S-BM25+S-Vec"

// TopKCutoffs are the cutoffs of the Top-K sensitivity analysis.
var TopKCutoffs = analysis.SensitivityCutoffs

// Singles is Outcome.Singles: the protocol's single retrievers (Table 3
// order), evaluated once.
func (s *Study) Singles() ([]*experiment.Evaluation, error) { return s.Outcome.Singles() }

// Sweep is Outcome.Sweep: the protocol's pairings × β sweep, run once.
func (s *Study) Sweep() (*experiment.Sweep, error) { return s.Outcome.Sweep() }

// Selected is Outcome.Selected: the configuration the sweep selected,
// evaluated with intervals.
func (s *Study) Selected() (*experiment.Evaluation, experiment.Config, error) {
	return s.Outcome.Selected()
}

// SummaryHybrid evaluates summary_bm25 + summary_vector at its best β: the
// run of the paper's auxiliary failure analysis.
func (s *Study) SummaryHybrid() (*experiment.Evaluation, experiment.Config, error) {
	return s.Outcome.BestOf(SummaryPairing)
}

// evaluated is the number of questions evaluated (those with primary gold)
// once the single retrievers ran, else the number of questions.
func evaluated(s *Study) int {
	if n, ok := s.Outcome.SinglesDone(); ok {
		return n
	}
	return len(s.Questions)
}
