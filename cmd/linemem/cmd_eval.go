package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
	flag "github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "score retrievers on a question set: Recall/MRR/nDCG/Success@5 with bootstrap CIs",
		usage:   "--questions FILE --qrels FILE --retriever NAME[,NAME…]",
		run:     runEval,
	})
}

// evalJSON is the `eval --json` document (spec §12): per retriever the mean
// and interval of every metric of the protocol, in its order, and per
// question type the means; extended with paired differences.
type evalJSON struct {
	Tokenizer         string           `json:"tokenizer"`
	EmbedModel        string           `json:"embed_model,omitempty"`
	Retrievers        []retrieverJSON  `json:"retrievers"`
	PairedDifferences []differenceJSON `json:"paired_differences,omitempty"`
	Bootstrap         bootstrapJSON    `json:"bootstrap"`
	Warnings          []string         `json:"warnings"` // the qrels warnings
}

// retrieverJSON is one retriever of evalJSON: its head, one field per metric
// of the protocol, then ci and by_type.
type retrieverJSON = metricObject[retrieverHead, retrieverTail]

type retrieverHead struct {
	Name         string   `json:"name"`
	Questions    int      `json:"questions"`
	Excluded     int      `json:"excluded"`
	ExcludedQIDs []string `json:"excluded_qids"`
}

type retrieverTail struct {
	CI     map[string][2]float64 `json:"ci"`
	ByType map[string]typeJSON   `json:"by_type"`
}

// typeJSON is one question type of a retriever: its question count, then
// one field per metric of the protocol.
type typeJSON = metricObject[typeHead, noFields]

type typeHead struct {
	Questions int `json:"questions"`
}

type differenceJSON struct {
	A      string     `json:"a"`
	B      string     `json:"b"`
	Metric string     `json:"metric"`
	Diff   float64    `json:"diff"`
	CI     [2]float64 `json:"ci"`
}

type bootstrapJSON struct {
	B         int    `json:"B"`
	Seed      uint64 `json:"seed"`
	Generator string `json:"generator"`
}

func runEval(env *environment, c *command, args []string) error {
	var db, names, runDir string
	var set questionSetFlags
	var opts corpusOptions
	var asJSON bool
	proto := experiment.PaperProtocol()
	fs := newFlagSet(env, c, &db)
	set.bind(fs, "questions `FILE` (JSONL: qid, question, type)")
	fs.StringVar(&names, "retriever", "", "retriever `NAME`s, comma-separated (e.g. raw_text_bm25,hybrid:embedding_text_bm25+embedding_text_vector@0.45)")
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` of chunk and query vectors (default: the only one stored)")
	fs.StringVar(&proto.Tokenizer, "tokenizer", proto.Tokenizer, "BM25 `TOKENIZER`: "+strings.Join(tokenize.Names(), ", "))
	metricsFlag(fs, &proto)
	fs.StringVar(&runDir, "run-dir", "", fmt.Sprintf("write one TREC run file per retriever (top %d) into `DIR`", proto.RunDepth))
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.IntVar(&proto.B, "bootstrap", proto.B, fmt.Sprintf("bootstrap resamples `B`, 1 to %d", experiment.MaxBootstrap))
	fs.Uint64Var(&proto.Seed, "seed", proto.Seed, "bootstrap `SEED`")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if !set.given() || names == "" {
		return fmt.Errorf("%w: --questions, --qrels and --retriever are required", errUsage)
	}
	if err := experiment.CheckBootstrap(proto.B); err != nil {
		return fmt.Errorf("%w: --bootstrap: %v", errUsage, err)
	}
	specs, err := retrieval.ParseNames(strings.Split(names, ","))
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := proto.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	in, err := openEvalInput(env, db, &set, opts, proto, specsNeedVectors(specs))
	if err != nil {
		return err
	}
	defer in.Close()
	setup := in.setup
	evals, err := setup.EvaluateSpecs(specs)
	if err != nil {
		return err
	}
	if runDir != "" {
		if err := writeRuns(runDir, setup.QIDs(), evals); err != nil {
			return err
		}
	}
	if !asJSON {
		printEvalTable(env, proto, evals)
		return nil
	}
	doc := evalJSON{Tokenizer: proto.Tokenizer, EmbedModel: in.model, Bootstrap: bootstrapJSON{proto.B, proto.Seed, bootstrap.Generator}, Warnings: in.warnings}
	for _, ev := range evals {
		doc.Retrievers = append(doc.Retrievers, retrieverDoc(proto.Metrics, ev))
	}
	for i := range evals {
		for j := i + 1; j < len(evals); j++ {
			for _, m := range proto.Metrics {
				d, err := setup.PairedDifference(evals[i], evals[j], m)
				if err != nil {
					return err
				}
				doc.PairedDifferences = append(doc.PairedDifferences, differenceJSON{d.A, d.B, d.Metric, d.Mean, [2]float64{d.Lo, d.Hi}})
			}
		}
	}
	return writeJSON(env, doc)
}

// metricsFlag defines --metrics on fs, the metrics p reports, in order.
func metricsFlag(fs *flag.FlagSet, p *experiment.Protocol) {
	fs.StringSliceVar(&p.Metrics, "metrics", p.Metrics, "`METRIC`s to report, comma-separated, in column order (FAMILY@K, FAMILY one of "+strings.Join(metrics.Families(), ", ")+")")
}

// retrieverDoc is ev as evalJSON holds it, with the metrics names.
func retrieverDoc(names []string, ev *experiment.Evaluation) retrieverJSON {
	res := ev.Result
	r := retrieverJSON{
		Head:    retrieverHead{Name: ev.Name, Questions: len(res.QIDs), Excluded: len(res.Excluded), ExcludedQIDs: nonNil(res.Excluded)},
		Metrics: names, Means: meansOf(names, res.Mean),
		Tail: retrieverTail{CI: map[string][2]float64{}, ByType: map[string]typeJSON{}},
	}
	for m, iv := range ev.CI {
		r.Tail.CI[m] = [2]float64{iv.Lo, iv.Hi}
	}
	for _, t := range res.TypeOrder {
		tm := res.ByType[t]
		r.Tail.ByType[t] = typeJSON{Head: typeHead{tm.Questions}, Metrics: names, Means: meansOf(names, tm.Mean)}
	}
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeRuns writes {name}.run per evaluation, each run as evaluated (top
// Protocol.RunDepth) per question in question order; ":", "+" and "@" stay in the file name.
func writeRuns(dir string, qids []string, evals []*experiment.Evaluation) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, ev := range evals {
		path := filepath.Join(dir, ev.Name+".run")
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		werr := trec.WriteRun(f, qids, ev.Run, ev.Name)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("%s: %w", path, werr)
		}
	}
	return nil
}

// printEvalTable prints one row per evaluation: the questions, then each
// metric of p, its mean and interval (the mean alone when meanOnly).
func printEvalTable(env *environment, p experiment.Protocol, evals []*experiment.Evaluation) {
	tw := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	header := []string{"retriever", "questions"}
	for _, m := range p.Metrics {
		if meanOnly(m) {
			header = append(header, m)
		} else {
			header = append(header, fmt.Sprintf("%s [%s CI]", m, levelLabel(p.Level)))
		}
	}
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, ev := range evals {
		res := ev.Result
		row := []string{ev.Name, fmt.Sprintf("%d (+%d excluded)", len(res.QIDs), len(res.Excluded))}
		for _, m := range p.Metrics {
			if meanOnly(m) {
				row = append(row, fmt.Sprintf("%.3f", res.Mean[m]))
			} else {
				iv := ev.CI[m]
				row = append(row, fmt.Sprintf("%.3f [%.3f, %.3f]", res.Mean[m], iv.Lo, iv.Hi))
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// levelLabel writes an interval level as a percentage: 0.95 → "95%".
func levelLabel(level float64) string {
	return strconv.FormatFloat(math.Round(level*1e4)/1e2, 'f', -1, 64) + "%"
}

func writeJSON(env *environment, v any) error {
	return jsonl.WriteIndented(env.stdout, v)
}
