package beyond

import (
	"slices"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
)

// CorpusGain is one corpus's gain of the selected hybrid over the best
// single retriever (the selection metric, paired over the corpus's
// questions) when the selection never sees the questions it is scored on,
// beside whether the in-sample gain holds by construction. One corpus of
// many: a user of a data set, scored on its own history.
type CorpusGain struct {
	// KFold: configuration and single retriever selected on the other
	// folds of the corpus's questions (Selection.KFold, NestedFolds folds,
	// the protocol's seed).
	KFold experiment.Interval `json:"kfold_gain"`
	// OtherCorpora: configuration and single retriever selected on the
	// other corpora (OtherCorpora, filled by OtherCorporaGains);
	// OtherConfig names the configuration.
	OtherCorpora experiment.Interval `json:"other_users_gain"`
	OtherConfig  string              `json:"other_users_config"`
	// ByConstruction: a β = 1.00 configuration of a pairing whose BM25
	// component is the best single retriever scores exactly as it on every
	// question, so the in-sample maximum cannot fall below it.
	ByConstruction bool `json:"beta1_reproduces_best_single"`
}

// HeldOutGain is o's corpus gain held out within the corpus: the paired
// difference hybrid − single of the out-of-fold selection metric
// (Selection.KFold with NestedFolds folds from the protocol's seed), its
// percentile interval over the Setup's resamples at the protocol's level
// (zero without an out-of-fold question), and ByConstruction. It also
// returns the corpus's Selection, the candidates OtherCorporaGains selects
// among.
func HeldOutGain(o *experiment.Outcome) (CorpusGain, Selection, error) {
	p := o.Protocol()
	sw, err := o.Sweep()
	if err != nil {
		return CorpusGain{}, Selection{}, err
	}
	singles, err := o.Singles()
	if err != nil {
		return CorpusGain{}, Selection{}, err
	}
	best, err := o.BestSingle()
	if err != nil {
		return CorpusGain{}, Selection{}, err
	}
	sel := NewSelection(sw, singles, p.SelectionMetric)
	cv, err := sel.KFold(0, p.Seed)
	if err != nil {
		return CorpusGain{}, Selection{}, err
	}
	var g CorpusGain
	if len(cv.HybridOOF) > 0 {
		d, lo, hi := o.Setup.Indices(len(cv.HybridOOF)).PairedDiffCI(cv.HybridOOF, cv.SingleOOF, p.Level)
		g.KFold = experiment.Interval{Mean: d, Lo: lo, Hi: hi}
	}
	g.ByConstruction = reproducesSingle(p, sw, best)
	return g, sel, nil
}

// reproducesSingle reports whether some β = 1.00 configuration of a pairing
// whose BM25 component is the best single retriever scores exactly as that
// retriever on every question under the selection metric (min–max maps a
// one-member BM25 list to 0, so the fused run can lose a hit the single
// retriever finds).
func reproducesSingle(p experiment.Protocol, sw *experiment.Sweep, best *experiment.Evaluation) bool {
	scores := best.Result.Scores(p.SelectionMetric)
	for _, c := range sw.Configs {
		pr, err := p.Pairing(c.Pairing)
		if err != nil || c.Beta != 1 || pr.BM25.Name() != best.Name {
			continue
		}
		if slices.Equal(c.Result.Scores(p.SelectionMetric), scores) {
			return true
		}
	}
	return false
}

// OtherCorporaGains fills each gains[i].OtherCorpora and OtherConfig: the
// configuration and the single retriever OtherCorpora selects for corpus i
// on the other corpora of sels (in gains order), their paired difference on
// corpus i's questions and its percentile interval at p.Level over a
// B × max(n, 1) matrix from p.Seed (n: corpus i's questions). With fewer
// than two corpora nothing is filled.
func OtherCorporaGains(gains []CorpusGain, sels []Selection, p experiment.Protocol) {
	hybrid, single, names := OtherCorpora(sels)
	if hybrid == nil {
		return
	}
	for i := range gains {
		ix := bootstrap.NewIndices(p.B, max(len(hybrid[i]), 1), p.Seed)
		d, lo, hi := ix.PairedDiffCI(hybrid[i], single[i], p.Level)
		gains[i].OtherCorpora, gains[i].OtherConfig = experiment.Interval{Mean: d, Lo: lo, Hi: hi}, names[i]
	}
}
