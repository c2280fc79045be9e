package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
	"github.com/linemem/linemem/lib/trec"
	"github.com/linemem/linemem/lib/workbench"
)

func init() {
	register(&command{
		name:    "gold resolve",
		summary: "build graded qrels from an evidence file over the stored messages and chunks",
		usage: `--evidence FILE [--out qrels.txt] [--strict]

Each evidence item (source, date, time, sender, text_prefix, role) is matched
to a stored message: exactly first, then by excerpt search within the source
near the date. Every chunk holding a matched answer message gets relevance 2,
every other chunk holding a matched supporting message relevance 1. The qrels
go to --out (stdout without it); the report of unmatched items and of
questions left without relevance-2 gold goes to stderr. --strict turns either
into a failure.`,
		run: runGoldResolve,
	})
}

func runGoldResolve(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	evidencePath := fset.String("evidence", "", "evidence `FILE` (JSON lines, spec §11)")
	outPath := fset.String("out", "", "qrels output `FILE`; stdout when empty")
	strict := fset.Bool("strict", false, "fail when an item is unmatched or a question has no relevance-2 chunk")
	rest, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *evidencePath == "" {
		fset.Usage()
		return fmt.Errorf("%w: --evidence FILE is required and no arguments are taken", errUsage)
	}
	evidence, err := gold.ReadEvidenceFile(*evidencePath)
	if err != nil {
		return err
	}
	st, err := openReadOnlyStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	sources, err := st.Sources()
	if err != nil {
		return err
	}
	var msgs []chat.Message
	for _, s := range sources {
		ms, err := st.Messages(s.Name)
		if err != nil {
			return err
		}
		msgs = append(msgs, ms...)
	}
	chunks, err := st.Chunks()
	if err != nil {
		return err
	}
	qrels, report := gold.Resolve(evidence, msgs, chunks)
	if err := writeQrelsTo(env.stdout, *outPath, qrels); err != nil {
		return err
	}
	if err := report.WriteText(env.stderr); err != nil {
		return err
	}
	if *strict && (len(report.Unmatched) > 0 || len(report.NoPrimary) > 0) {
		return fmt.Errorf("%d unmatched evidence items, %d questions without relevance-2 gold", len(report.Unmatched), len(report.NoPrimary))
	}
	return nil
}

func writeQrelsTo(stdout io.Writer, path string, qrels ranking.Qrels) error {
	if path == "" {
		return trec.WriteQrels(stdout, qrels)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := trec.WriteQrels(f, qrels); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func init() {
	register(&command{
		name:    "gold pool",
		summary: "store the candidate pool per question: evidence-resolved chunks plus each retriever's top K",
		usage: `--questions FILE [--evidence FILE] [--depth K] [--retriever NAME[,NAME…]]

For every question the pool is the union of the chunks its evidence items
resolve to (matched exactly or by excerpt search, with the match score) and
the top --depth chunks of each --retriever (TREC-style depth-K pooling), each
row remembering where it came from. The judging page hides that by default.
BM25 retrievers tokenize as the everyday search does (--tokenizer paper-regex
for the paper's tokenizer). The report gives, per question, the rows each
retriever and each evidence item contributed, and warns by name about a
question no retriever returned anything for.
Pooling again replaces the questions' pools and keeps their judgments.
A candidates file from ` + "`questions draft`" + ` serves as both --questions and --evidence.`,
		run: runGoldPool,
	})
}

func runGoldPool(env *environment, c *command, args []string) error {
	var dbPath string
	var opts corpusOptions
	fs := newFlagSet(env, c, &dbPath)
	questionsPath := fs.String("questions", "", "questions `FILE` (JSON lines, spec §11)")
	evidencePath := fs.String("evidence", "", "evidence `FILE` (JSON lines, spec §11); none: retrievers only")
	depth := fs.Int("depth", workbench.DefaultDepth, "top `K` chunks of each retriever join the pool (0: evidence only)")
	names := fs.String("retriever", "", "retriever `NAMES`, comma-separated (default: as `search`)")
	fs.StringVar(&opts.embedModel, "embed-model", "", "embedding `MODEL` (default: the only one stored)")
	fs.StringVar(&opts.tokenizer, "tokenizer", "", "BM25 `TOKENIZER` (default: the everyday one, "+memory.DefaultTokenizer+"; "+tokenize.Default+" for the paper's)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *questionsPath == "" {
		return fmt.Errorf("%w: --questions FILE is required and no arguments are taken", errUsage)
	}
	if *depth < 0 {
		return fmt.Errorf("%w: --depth must be ≥ 0", errUsage)
	}
	qs, err := workbench.ReadQuestionsFile(*questionsPath)
	if err != nil {
		return err
	}
	if len(qs) == 0 {
		return fmt.Errorf("%s: no questions: expected JSON lines {\"qid\", \"question\", \"type\"} (a candidates file from `questions draft` will do)", *questionsPath)
	}
	var evidence []gold.Evidence
	if *evidencePath != "" {
		if evidence, err = gold.ReadEvidenceFile(*evidencePath); err != nil {
			return err
		}
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	var retrievers []string
	if *names != "" {
		retrievers = strings.Split(*names, ",")
	} else {
		name, err := memory.DefaultRetriever(st)
		if err != nil {
			return err
		}
		retrievers = []string{name}
	}
	if *depth == 0 {
		retrievers = nil
	}
	vec, err := needsVectors(retrievers)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if vec && opts.embedModel == "" {
		if opts.embedModel, err = memory.SoleEmbedModel(st); err != nil {
			return err
		}
	}
	opts.tokenizer = memory.EverydayTokenizer(opts.tokenizer)
	builder, _, err := openBuilderWith(st, memory.LocalQueryVectors(st), opts, vec)
	if err != nil {
		return err
	}
	rep, err := workbench.Open(st).Pool(workbench.PoolOptions{Questions: qs, Evidence: evidence, EvidenceFile: *evidencePath,
		Depth: *depth, Retrievers: retrievers, Builder: builder})
	if err != nil {
		return err
	}
	return rep.WriteText(env.stdout)
}

func init() {
	register(&command{
		name:    "gold judgments",
		summary: "move judgments between machines and annotators: import FILE | export --out FILE [--annotator NAME]",
		usage: `import FILE | export [--out FILE] [--annotator NAME]

Judgments JSONL (spec §13): {"qid", "chunk_id", "rel", "annotator"} plus
optional "note" and "at" (RFC 3339). An import is all or nothing; a row for
the same (annotator, qid, chunk_id) replaces the earlier one; an unknown qid
or chunk_id, or rel outside 0, 1, 2, is an error naming FILE:LINE. Optional
"blind" (true: judged before the sources were revealed) and "seconds" (time
spent on the row) travel with each row; files without them still import.
Pool the questions first (gold pool --questions FILE): a judged row of a
pooled question that is not in its pool joins it, and the import says so.`,
		run: runGoldJudgments,
	})
}

func runGoldJudgments(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	out := fs.String("out", "", "export: output `FILE`; stdout when empty")
	annotator := fs.String("annotator", "", "export: only this annotator's rows")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || (rest[0] == "import" && len(rest) != 2) || (rest[0] == "export" && len(rest) != 1) || rest[0] != "import" && rest[0] != "export" {
		return fmt.Errorf("%w: `gold judgments import FILE` or `gold judgments export [--out FILE] [--annotator NAME]`", errUsage)
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	b := workbench.Open(st)
	if rest[0] == "import" {
		rep, err := b.ImportJudgmentsFile(rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "imported %d judgments from %s\n", rep.Rows, rest[1])
		if rep.JoinedPool > 0 {
			fmt.Fprintf(env.stdout, "%d judged rows were not in their question's pool and joined it (origin %s)\n", rep.JoinedPool, workbench.OriginJudgment)
		}
		return nil
	}
	if *annotator != "" {
		all, err := b.Annotators()
		if err != nil {
			return err
		}
		if err := checkAnnotators(all, *annotator); err != nil {
			return err
		}
	}
	rows, err := b.Judgments(*annotator)
	if err != nil {
		return err
	}
	return writeFileOr(env.stdout, *out, func(w io.Writer) error { return workbench.WriteJudgments(w, rows) })
}

func init() {
	register(&command{
		name:    "gold export",
		summary: "write TREC qrels of the judged rows and the questions that keep relevance-2 gold",
		usage: `--qrels FILE [--questions-out FILE] [--groups-out FILE] [--annotator NAME]

One annotator's judgments (--annotator; may be left out when only one person
has judged) become qrels of every labelled row, relevance 0 included, for the
retained questions: those with at least one chunk labelled 2 that the
annotator did not drop. The report on stderr lists every other question with
its reason, and the pool rows left unlabelled (evaluation reads them as 0).
--groups-out writes the evidence groups (chunks labelled 2 that share an
answer evidence message; one labelled 2 that holds none is a group of its own)
as JSON lines {"qid", "chunk_ids", "message_ids"}, for a group-level recall
beside the chunk-level one.

--annotator consensus exports the consensus of two annotators (--pair A,B;
may be left out when exactly two people have judged), computed from their
labels as they stand now: the rows both label alike, and the adjudicated
rows whose disagreement still stands; --singles adds the rows only one of
them labelled, with that label. The report counts each kind and lists every
adjudication a later agreement or change made obsolete.`,
		run: runGoldExport,
	})
}

func runGoldExport(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	qrelsPath := fs.String("qrels", "", "qrels output `FILE`")
	questionsOut := fs.String("questions-out", "", "retained questions output `FILE` (JSON lines)")
	groupsOut := fs.String("groups-out", "", "evidence groups output `FILE` (JSON lines)")
	annotator := fs.String("annotator", "", "whose judgments (default: the only annotator)")
	pair := fs.String("pair", "", "with --annotator consensus: the two annotators `A,B` (default: the only two)")
	singles := fs.Bool("singles", false, "with --annotator consensus: add the rows only one of the two labelled")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *qrelsPath == "" {
		return fmt.Errorf("%w: --qrels FILE is required and no arguments are taken", errUsage)
	}
	if err := distinctOutputs([2]string{"--qrels", *qrelsPath}, [2]string{"--questions-out", *questionsOut}, [2]string{"--groups-out", *groupsOut}); err != nil {
		return err
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	b := workbench.Open(st)
	if (*pair != "" || *singles) && *annotator != workbench.Consensus {
		return fmt.Errorf("%w: --pair and --singles go with --annotator %s", errUsage, workbench.Consensus)
	}
	var ex workbench.Export
	if *annotator == workbench.Consensus {
		a, bName, err := consensusPair(b, *pair)
		if err != nil {
			return err
		}
		ex, err = b.ExportConsensus(a, bName, *singles)
		if err != nil {
			return err
		}
	} else {
		name, err := soleAnnotator(b, *annotator)
		if err != nil {
			return err
		}
		if ex, err = b.Export(name); err != nil {
			return err
		}
	}
	if err := writeQrelsTo(env.stdout, *qrelsPath, ex.Qrels); err != nil {
		return err
	}
	if *questionsOut != "" {
		if err := writeFileOr(env.stdout, *questionsOut, ex.WriteQuestions); err != nil {
			return err
		}
	}
	if *groupsOut != "" {
		if err := writeFileOr(env.stdout, *groupsOut, func(w io.Writer) error { return workbench.WriteGroups(w, ex.Groups) }); err != nil {
			return err
		}
	}
	return ex.WriteReport(env.stderr)
}

// consensusPair returns the two annotators of pair ("A,B"), or, when pair
// is empty, the only two annotators besides the consensus.
func consensusPair(b *workbench.Bench, pair string) (string, string, error) {
	all, err := b.Annotators()
	if err != nil {
		return "", "", err
	}
	if pair != "" {
		names := strings.Split(pair, ",")
		if len(names) != 2 {
			return "", "", fmt.Errorf("%w: --pair %s: want two annotator names A,B", errUsage, pair)
		}
		return names[0], names[1], checkAnnotators(all, names...)
	}
	var people []string
	for _, a := range all {
		if a != workbench.Consensus {
			people = append(people, a)
		}
	}
	if len(people) != 2 {
		return "", "", fmt.Errorf("%w: the consensus is computed from two annotators; name them with --pair A,B (annotators: %s)", errUsage, strings.Join(people, ", "))
	}
	return people[0], people[1], nil
}

// soleAnnotator returns name, or the only annotator when name is empty; a
// name that has neither judged nor decided anything is a usage error (a typo
// would otherwise export empty gold).
func soleAnnotator(b *workbench.Bench, name string) (string, error) {
	all, err := b.Annotators()
	if err != nil {
		return "", err
	}
	if name != "" {
		return name, checkAnnotators(all, name)
	}
	switch len(all) {
	case 0:
		return "", errors.New("nobody has judged yet: judge in `linemem serve` or `gold judgments import FILE` first")
	case 1:
		return all[0], nil
	}
	return "", fmt.Errorf("%w: several annotators (%s): pass --annotator", errUsage, strings.Join(all, ", "))
}

// checkAnnotators reports, as a usage error, the first of names that is not in
// all (the annotators with a judgment or a decision).
func checkAnnotators(all []string, names ...string) error {
	for _, n := range names {
		if !slices.Contains(all, n) {
			known := "nobody has judged yet"
			if len(all) > 0 {
				known = "annotators: " + strings.Join(all, ", ")
			}
			return fmt.Errorf("%w: no judgments by annotator %q (%s)", errUsage, n, known)
		}
	}
	return nil
}

func init() {
	register(&command{
		name:    "gold agreement",
		summary: "Cohen's κ and linear weighted κ of two annotators over the rows both judged",
		usage: `--annotators A,B [--json]

κ = (p_o − p_e)/(1 − p_e) over the rows both annotators labelled; the
weighted κ uses linear weights 1 − |i − j|/2 on the 0/1/2 scale. Both are
undefined (null in JSON) when no row was labelled by both or both used one
label throughout. The text output lists the confusion table and every
disagreement for adjudication.`,
		run: runGoldAgreement,
	})
}

func runGoldAgreement(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	pair := fs.String("annotators", "", "two annotator names `A,B`")
	asJSON := fs.Bool("json", false, `print {"rows", "kappa", "weighted_kappa"}`)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	names := strings.Split(*pair, ",")
	if len(rest) > 0 || len(names) != 2 || names[0] == "" || names[1] == "" {
		return fmt.Errorf("%w: --annotators A,B (two names) is required and no arguments are taken", errUsage)
	}
	if names[0] == names[1] {
		return fmt.Errorf("%w: --annotators %s,%s names the same annotator twice; agreement compares two different annotators", errUsage, names[0], names[1])
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	b := workbench.Open(st)
	all, err := b.Annotators()
	if err != nil {
		return err
	}
	if err := checkAnnotators(all, names...); err != nil {
		return err
	}
	ag, err := b.Agreement(names[0], names[1])
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env, agreementJSON{Rows: ag.Table.Rows(), Kappa: jsonNumber(ag.Kappa), WeightedKappa: jsonNumber(ag.WeightedKappa),
			Weights: "linear", Annotators: names, OnlyA: ag.OnlyA, OnlyB: ag.OnlyB, Disagreements: len(ag.Disagreements)})
	}
	w := env.stdout
	fmt.Fprintf(w, "%s vs %s: %d rows judged by both (%d only by %s, %d only by %s)\n", ag.A, ag.B, ag.Table.Rows(), ag.OnlyA, ag.A, ag.OnlyB, ag.B)
	fmt.Fprintf(w, "Cohen's κ %s, linear weighted κ %s\n", formatKappa(ag.Kappa), formatKappa(ag.WeightedKappa))
	fmt.Fprintf(w, "%-8s %6s %6s %6s   (rows: %s, columns: %s)\n", "", "0", "1", "2", ag.A, ag.B)
	for i, row := range ag.Table {
		fmt.Fprintf(w, "%-8d %6d %6d %6d\n", i, row[0], row[1], row[2])
	}
	for _, d := range ag.Disagreements {
		fmt.Fprintf(w, "disagree %s %s: %s %d, %s %d\n", d.QID, d.ChunkID, ag.A, d.A, ag.B, d.B)
	}
	return nil
}

type agreementJSON struct {
	Rows          int      `json:"rows"`
	Kappa         *float64 `json:"kappa"`
	WeightedKappa *float64 `json:"weighted_kappa"`
	Weights       string   `json:"weights"`
	Annotators    []string `json:"annotators"`
	OnlyA         int      `json:"only_first"`
	OnlyB         int      `json:"only_second"`
	Disagreements int      `json:"disagreements"`
}

// jsonNumber is nil (JSON null) for NaN.
func jsonNumber(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func formatKappa(x float64) string {
	if math.IsNaN(x) {
		return "undefined"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// writeFileOr writes with write to path, or to stdout when path is empty.
func writeFileOr(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
