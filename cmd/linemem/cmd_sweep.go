package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	register(&command{
		name:    "sweep",
		summary: "the paper's hybrid sweep: 6 pairings × 21 β, and the selected configuration",
		usage:   "--questions FILE --qrels FILE",
		run:     runSweep,
	})
}

type sweepConfigJSON struct {
	Name     string  `json:"name"`
	Pairing  string  `json:"pairing"`
	Beta     float64 `json:"beta"`
	Recall5  float64 `json:"recall@5"`
	MRR5     float64 `json:"mrr@5"`
	NDCG5    float64 `json:"ndcg@5"`
	Success5 float64 `json:"success@5"`
}

type sweepJSON struct {
	Tokenizer      string            `json:"tokenizer"`
	EmbedModel     string            `json:"embed_model"`
	Questions      int               `json:"questions"`
	Excluded       int               `json:"excluded"`
	Configurations []sweepConfigJSON `json:"configurations"`
	Selected       sweepConfigJSON   `json:"selected"`
	SelectedIndex  int               `json:"selected_index"`
}

func runSweep(env *environment, c *command, args []string) error {
	var db, questionsPath, qrelsPath string
	var opts corpusOptions
	var asJSON bool
	proto := experiment.PaperProtocol()
	fs := newFlagSet(env, c, &db)
	fs.StringVar(&questionsPath, "questions", "", "questions `FILE`")
	fs.StringVar(&qrelsPath, "qrels", "", "TREC qrels `FILE`")
	allowDup := allowDuplicateQrelsFlag(fs)
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` (default: the only one stored)")
	fs.StringVar(&proto.Tokenizer, "tokenizer", proto.Tokenizer, "BM25 `TOKENIZER`: "+strings.Join(tokenize.Names(), ", "))
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if questionsPath == "" || qrelsPath == "" {
		return fmt.Errorf("%w: --questions and --qrels are required", errUsage)
	}
	if err := proto.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts.tokenizer = proto.Tokenizer
	qs, qrels, err := loadQuestionSet(env, questionsPath, qrelsPath, *allowDup)
	if err != nil {
		return err
	}
	if err := experiment.CheckEvaluable(qs, qrels, questionsPath, qrelsPath); err != nil {
		return err
	}
	st, err := openReadOnlyStore(db)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkGoldInCorpus(st, qrelsPath, qrels); err != nil {
		return err
	}
	builder, model, err := openBuilder(st, opts, true)
	if err != nil {
		return err
	}
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Builder: builder, Protocol: proto}
	sw, err := setup.Sweep(nil, nil)
	if err != nil {
		return err
	}
	doc := sweepJSON{Tokenizer: proto.Tokenizer, EmbedModel: model, SelectedIndex: sw.Selected}
	for _, cfg := range sw.Configs {
		m := cfg.Result.Mean
		doc.Configurations = append(doc.Configurations, sweepConfigJSON{cfg.Name, cfg.Pairing, cfg.Beta, m[metrics.Recall5], m[metrics.MRR5], m[metrics.NDCG5], m[metrics.Success5]})
	}
	doc.Selected = doc.Configurations[sw.Selected]
	first := sw.Configs[0].Result
	doc.Questions, doc.Excluded = len(first.QIDs), len(first.Excluded)
	if asJSON {
		return writeJSON(env, doc)
	}
	tw := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "pairing\tbest β\trecall@5\tmrr@5\tndcg@5")
	for _, p := range proto.Pairings {
		best, _ := sw.BestOf(p.Label, proto.SelectionMetric)
		m := best.Result.Mean
		fmt.Fprintf(tw, "%s\t%.2f\t%.3f\t%.3f\t%.3f\n", p.Label, best.Beta, m[metrics.Recall5], m[metrics.MRR5], m[metrics.NDCG5])
	}
	tw.Flush()
	s := doc.Selected
	fmt.Fprintf(env.stdout, "\nselected (first to attain the maximum %s of %d configurations): %s  recall@5 %.3f  mrr@5 %.3f  ndcg@5 %.3f\n", proto.SelectionMetric, len(doc.Configurations), s.Name, s.Recall5, s.MRR5, s.NDCG5)
	return nil
}
