package beyond

import (
	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider/lsa"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
)

// OfflineExpanders are the expanders a reproduction measures: the LLM
// decomposer sends questions to a remote model and is measured only on
// request.
var OfflineExpanders = []string{expand.NameRM3, expand.NamePhrases}

// ExpansionSettings are the expanders' parameters, as lib/expand defines
// them, for captions and the manifest.
type ExpansionSettings struct {
	FeedbackDocs, FeedbackTerms   int
	MaxFeedbackDF, OriginalWeight float64
	PromptVersion                 string // of the LLM decomposer, which is not run offline
	MultiRRFK                     int    // the K of the reciprocal rank fusion that merges sub-queries
}

// Settings returns the settings of lib/expand and lib/retrieval that
// OfflineExpansion runs under.
func Settings() ExpansionSettings {
	return ExpansionSettings{expand.DefaultFeedbackDocs, expand.DefaultFeedbackTerms, expand.MaxFeedbackDF, expand.DefaultOriginalWeight, expand.PromptVersion, retrieval.MultiRRFK}
}

// OfflineExpansion is QueryExpansion of o's study: OfflineExpanders over the
// best single retriever and over the selected hybrid, compared with the
// selected hybrid overall and on aggregate questions. Sub-queries of a
// hybrid base need query vectors, which only the local LSA model can fold
// in (memory.LocalQueryVectors over st); with vectors of another
// embedModel (shipped or remote) the hybrid base is left out. It returns
// the comparison and the names compared (ExpansionNames).
func OfflineExpansion(o *experiment.Outcome, st *store.Store, corpus retrieval.Corpus, embedModel string) (*Expansion, []string, error) {
	_, cfg, err := o.Selected()
	if err != nil {
		return nil, nil, err
	}
	single, err := o.BestSingle()
	if err != nil {
		return nil, nil, err
	}
	b, bases := o.Setup.Builder, []string{single.Name}
	if lsa.IsModelName(embedModel) {
		b = retrieval.NewBuilder(corpus, memory.LocalQueryVectors(st), retrieval.Options{Tokenizer: o.Protocol().Tokenizer, EmbedModel: embedModel})
		bases = append(bases, cfg.Name)
	}
	names := ExpansionNames(cfg.Name, bases, OfflineExpanders)
	setup := experiment.NewSetup(o.Setup.Questions, o.Setup.Qrels, b)
	setup.Protocol = o.Protocol()
	exp, err := QueryExpansion(setup, names, []string{questions.Aggregate})
	return exp, names, err
}
