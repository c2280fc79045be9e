package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/store"
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

// evalJSON is the `eval --json` document (spec §12), extended with
// success@5, per-type means and paired differences.
type evalJSON struct {
	Tokenizer         string           `json:"tokenizer"`
	EmbedModel        string           `json:"embed_model,omitempty"`
	Retrievers        []retrieverJSON  `json:"retrievers"`
	PairedDifferences []differenceJSON `json:"paired_differences,omitempty"`
	Bootstrap         bootstrapJSON    `json:"bootstrap"`
	Warnings          []string         `json:"warnings"`
}

type retrieverJSON struct {
	Name         string                `json:"name"`
	Questions    int                   `json:"questions"`
	Excluded     int                   `json:"excluded"`
	ExcludedQIDs []string              `json:"excluded_qids"`
	Recall5      float64               `json:"recall@5"`
	MRR5         float64               `json:"mrr@5"`
	NDCG5        float64               `json:"ndcg@5"`
	Success5     float64               `json:"success@5"`
	CI           map[string][2]float64 `json:"ci"`
	ByType       map[string]typeJSON   `json:"by_type"`
}

type typeJSON struct {
	Questions int     `json:"questions"`
	Recall5   float64 `json:"recall@5"`
	MRR5      float64 `json:"mrr@5"`
	NDCG5     float64 `json:"ndcg@5"`
	Success5  float64 `json:"success@5"`
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

func runEval(env *environment, args []string) error {
	c := commands["eval"]
	var db, questionsPath, qrelsPath, names, runDir string
	var opts corpusOptions
	var asJSON bool
	proto := experiment.PaperProtocol()
	fs := newFlagSet(env, c, &db)
	fs.StringVar(&questionsPath, "questions", "", "questions `FILE` (JSONL: qid, question, type)")
	fs.StringVar(&qrelsPath, "qrels", "", "TREC qrels `FILE`")
	allowDup := allowDuplicateQrelsFlag(fs)
	fs.StringVar(&names, "retriever", "", "retriever `NAME`s, comma-separated (e.g. raw_text_bm25,hybrid:embedding_text_bm25+embedding_text_vector@0.45)")
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` of chunk and query vectors (default: the only one stored)")
	fs.StringVar(&proto.Tokenizer, "tokenizer", proto.Tokenizer, "BM25 `TOKENIZER`: "+strings.Join(tokenize.Names(), ", "))
	fs.StringVar(&runDir, "run-dir", "", fmt.Sprintf("write one TREC run file per retriever (top %d) into `DIR`", proto.RunDepth))
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.IntVar(&proto.B, "bootstrap", proto.B, fmt.Sprintf("bootstrap resamples `B`, 1 to %d", experiment.MaxBootstrap))
	fs.Uint64Var(&proto.Seed, "seed", proto.Seed, "bootstrap `SEED`")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, rest[0])
	}
	if questionsPath == "" || qrelsPath == "" || names == "" {
		return fmt.Errorf("%w: --questions, --qrels and --retriever are required", errUsage)
	}
	if err := experiment.CheckBootstrap(proto.B); err != nil {
		return fmt.Errorf("%w: --bootstrap: %v", errUsage, err)
	}
	retrievers := strings.Split(names, ",")
	qs, qrels, err := loadQuestionSet(env, questionsPath, qrelsPath, *allowDup)
	if err != nil {
		return err
	}
	if err := experiment.CheckEvaluable(qs, qrels, questionsPath, qrelsPath); err != nil {
		return err
	}
	specs, err := retrieval.ParseNames(retrievers)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := proto.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts.tokenizer = proto.Tokenizer
	st, err := openReadOnlyStore(db)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := checkGoldInCorpus(st, qrelsPath, qrels); err != nil {
		return err
	}
	builder, model, err := openBuilder(st, opts, specsNeedVectors(specs))
	if err != nil {
		return err
	}
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Builder: builder, Protocol: proto}
	evals, err := setup.EvaluateSpecs(specs)
	if err != nil {
		return err
	}
	if runDir != "" {
		if err := writeRuns(runDir, setup.QIDs(), evals); err != nil {
			return err
		}
	}
	warnings := []string{}
	if asJSON {
		doc := evalJSON{Tokenizer: proto.Tokenizer, EmbedModel: model, Bootstrap: bootstrapJSON{proto.B, proto.Seed, bootstrap.Generator}, Warnings: warnings}
		for _, ev := range evals {
			doc.Retrievers = append(doc.Retrievers, retrieverDoc(ev))
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
	for _, w := range warnings {
		fmt.Fprintln(env.stderr, "warning:", w)
	}
	printEvalTable(env, evals)
	return nil
}

func retrieverDoc(ev *experiment.Evaluation) retrieverJSON {
	res := ev.Result
	r := retrieverJSON{
		Name: ev.Name, Questions: len(res.QIDs), Excluded: len(res.Excluded), ExcludedQIDs: nonNil(res.Excluded),
		Recall5: res.Mean[metrics.Recall5], MRR5: res.Mean[metrics.MRR5], NDCG5: res.Mean[metrics.NDCG5], Success5: res.Mean[metrics.Success5],
		CI: map[string][2]float64{}, ByType: map[string]typeJSON{},
	}
	for m, iv := range ev.CI {
		r.CI[m] = [2]float64{iv.Lo, iv.Hi}
	}
	for _, t := range res.TypeOrder {
		tm := res.ByType[t]
		r.ByType[t] = typeJSON{tm.Questions, tm.Mean[metrics.Recall5], tm.Mean[metrics.MRR5], tm.Mean[metrics.NDCG5], tm.Mean[metrics.Success5]}
	}
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkGoldInCorpus refuses qrels whose gold chunk IDs are not all in the
// corpus of st (spec §11), naming the first such line of qrelsPath.
func checkGoldInCorpus(st *store.Store, qrelsPath string, qrels ranking.Qrels) error {
	ids, err := st.ChunkIDs()
	if err != nil {
		return err
	}
	corpus := make(map[string]bool, len(ids))
	for _, id := range ids {
		corpus[id] = true
	}
	return experiment.CheckGoldInCorpus(qrelsPath, qrels, corpus)
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

func printEvalTable(env *environment, evals []*experiment.Evaluation) {
	tw := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "retriever\tquestions\trecall@5 [95% CI]\tmrr@5 [95% CI]\tndcg@5 [95% CI]\tsuccess@5")
	for _, ev := range evals {
		res := ev.Result
		cell := func(m string) string {
			iv := ev.CI[m]
			return fmt.Sprintf("%.3f [%.3f, %.3f]", res.Mean[m], iv.Lo, iv.Hi)
		}
		fmt.Fprintf(tw, "%s\t%d (+%d excluded)\t%s\t%s\t%s\t%.3f\n", ev.Name, len(res.QIDs), len(res.Excluded), cell(metrics.Recall5), cell(metrics.MRR5), cell(metrics.NDCG5), res.Mean[metrics.Success5])
	}
	tw.Flush()
}

func writeJSON(env *environment, v any) error {
	return jsonl.WriteIndented(env.stdout, v)
}

// allowDuplicateQrelsFlag defines --allow-duplicate-qrels on fs.
func allowDuplicateQrelsFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("allow-duplicate-qrels", false, "keep the last of qrels rows that judge one (qid, chunk_id) differently, with a warning, instead of failing")
}

// loadQuestionSet reads the questions and qrels (experiment.LoadQuestionSetWith)
// and prints the qrels warnings on stderr.
func loadQuestionSet(env *environment, questionsPath, qrelsPath string, allowDuplicates bool) ([]questions.Question, ranking.Qrels, error) {
	qs, qrels, warnings, err := experiment.LoadQuestionSetWith(questionsPath, qrelsPath, trec.QrelsOptions{AllowConflicts: allowDuplicates})
	for _, w := range warnings {
		fmt.Fprintf(env.stderr, "warning: %v\n", &w)
	}
	return qs, qrels, err
}
