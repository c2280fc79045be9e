package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	paper := experiment.PaperProtocol()
	register(&command{
		name:    "sweep",
		summary: fmt.Sprintf("the paper's hybrid sweep: %d pairings × %d β, and the selected configuration", len(paper.Pairings), len(paper.Betas)),
		usage:   "--questions FILE --qrels FILE",
		run:     runSweep,
	})
}

// sweepConfigJSON is one configuration of sweepJSON: its name, pairing and
// β, then one field per metric of the protocol.
type sweepConfigJSON = metricObject[sweepConfigHead, noFields]

type sweepConfigHead struct {
	Name    string  `json:"name"`
	Pairing string  `json:"pairing"`
	Beta    float64 `json:"beta"`
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
	var db string
	var set questionSetFlags
	var opts corpusOptions
	var asJSON bool
	proto := experiment.PaperProtocol()
	fs := newFlagSet(env, c, &db)
	set.bind(fs, "questions `FILE`")
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` (default: the only one stored)")
	fs.StringVar(&proto.Tokenizer, "tokenizer", proto.Tokenizer, "BM25 `TOKENIZER`: "+strings.Join(tokenize.Names(), ", "))
	metricsFlag(fs, &proto)
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if !set.given() {
		return fmt.Errorf("%w: --questions and --qrels are required", errUsage)
	}
	if err := proto.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	in, err := openEvalInput(env, db, &set, opts, proto, true)
	if err != nil {
		return err
	}
	defer in.Close()
	sw, err := in.setup.Sweep(nil, nil)
	if err != nil {
		return err
	}
	doc := sweepJSON{Tokenizer: proto.Tokenizer, EmbedModel: in.model, SelectedIndex: sw.Selected}
	for _, cfg := range sw.Configs {
		doc.Configurations = append(doc.Configurations, sweepConfigJSON{
			Head:    sweepConfigHead{cfg.Name, cfg.Pairing, cfg.Beta},
			Metrics: proto.Metrics, Means: meansOf(proto.Metrics, cfg.Result.Mean),
		})
	}
	doc.Selected = doc.Configurations[sw.Selected]
	first := sw.Configs[0].Result
	doc.Questions, doc.Excluded = len(first.QIDs), len(first.Excluded)
	if asJSON {
		return writeJSON(env, doc)
	}
	var shown []string // the metrics of the text output
	for _, m := range proto.Metrics {
		if !meanOnly(m) {
			shown = append(shown, m)
		}
	}
	tw := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(append([]string{"pairing", "best β"}, shown...), "\t"))
	for _, p := range proto.Pairings {
		best, _ := sw.BestOf(p.Label, proto.SelectionMetric)
		row := []string{p.Label, fmt.Sprintf("%.2f", best.Beta)}
		for _, m := range shown {
			row = append(row, fmt.Sprintf("%.3f", best.Result.Mean[m]))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	s := doc.Selected
	fmt.Fprintf(env.stdout, "\nselected (first to attain the maximum %s of %d configurations): %s", proto.SelectionMetric, len(doc.Configurations), s.Head.Name)
	for _, m := range shown {
		fmt.Fprintf(env.stdout, "  %s %.3f", m, s.Means[m])
	}
	fmt.Fprintln(env.stdout)
	return nil
}
