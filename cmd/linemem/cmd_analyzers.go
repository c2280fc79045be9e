package main

import (
	"fmt"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	register(&command{
		name:    "analyzers compare",
		summary: "Recall@5 and Success@1 of BM25 over raw_text under each tokenizer, on data folders, and the everyday default the measurement picks",
		usage: `--corpus NAME=DIR [--corpus NAME=DIR …] [--tokenizers LIST]

Each DIR is a data folder as ` + "`reproduce`" + ` reads it: sources/ with LINE exports,
questions.jsonl, and qrels.txt or evidence.jsonl (resolved against the
folder's own chunks). Nothing is stored: the chunks are built in memory with
the paper's windows. The table (Markdown) goes to stdout; a tokenizer is
eligible as the everyday default when on every corpus both its means are at
least char-bigram's lower 95% bound, and the eligible one with the best mean
Recall@5 over the corpora (then Success@1) is chosen.`,
		run: runAnalyzersCompare,
	})
}

func runAnalyzersCompare(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	corpora := addCorpusFlag(fset, "column")
	toks := fset.String("tokenizers", strings.Join(analyzersTokenizers(), ","), "`LIST` of tokenizers, comma-separated, in row order")
	boot := addBootstrapFlags(fset)
	if err := parseFlagsOnly(fset, args); err != nil {
		return err
	}
	folders, err := corpora.folders()
	if err != nil {
		return err
	}
	proto, err := boot.protocol()
	if err != nil {
		return err
	}
	names := strings.Split(*toks, ",")
	for _, n := range names {
		if _, err := tokenize.New(n); err != nil {
			return fmt.Errorf("%w: --tokenizers: %v", errUsage, err)
		}
	}
	var loaded []*analyzers.Corpus
	for _, f := range folders {
		corpus, err := analyzers.LoadFolder(f.name, f.dir)
		if err != nil {
			return err
		}
		loaded = append(loaded, corpus)
	}
	table, err := analyzers.Measure(loaded, names, proto)
	if err != nil {
		return err
	}
	choice, err := analyzers.Choose(table)
	if err != nil {
		return err
	}
	return table.Report(choice).WriteMarkdown(env.stdout)
}

// analyzersTokenizers lists the tokenizers compared by default: the
// everyday analyzer first, then the others in registry order.
func analyzersTokenizers() []string {
	out := []string{"everyday"}
	for _, n := range tokenize.Names() {
		if n != "everyday" {
			out = append(out, n)
		}
	}
	return out
}

func init() {
	register(&command{
		name:    "analyzers abstain",
		summary: "error rates of the everyday search's \"may not hold the answer\" at each confidence threshold, on data folders",
		usage: `--corpus NAME=DIR [--corpus NAME=DIR …] [--at T]

For each data folder (as ` + "`analyzers compare`" + ` reads it), the confidence of the top
window (everyday tokenizer, BM25 over raw_text) of its answerable questions,
of noanswer.jsonl when there is one, and of each question whose gold lies in
one source searched in the folder without that source. Prints the error
rates at --at (default: the everyday threshold) and the threshold that
minimises their pooled mean.`,
		run: runAnalyzersAbstain,
	})
}

func runAnalyzersAbstain(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	corpora := addCorpusFlag(fset, "")
	at := addThresholdFlag(fset, "confidence threshold `T` to report")
	if err := parseFlagsOnly(fset, args); err != nil {
		return err
	}
	folders, err := corpora.folders()
	if err != nil {
		return err
	}
	var sets []analyzers.Confidences
	for _, f := range folders {
		corpus, err := analyzers.LoadFolder(f.name, f.dir)
		if err != nil {
			return err
		}
		na, err := analyzers.LoadNoAnswer(f.dir)
		if err != nil {
			return err
		}
		s, err := analyzers.MeasureConfidence(corpus, na)
		if err != nil {
			return err
		}
		sets = append(sets, s...)
	}
	return analyzers.AbstainReport(sets, analyzers.ChooseThreshold(sets), *at).WriteMarkdown(env.stdout)
}

// corpusFlag is --corpus NAME=DIR, the data folders of the analyzers
// commands.
type corpusFlag struct{ specs *[]string }

// corpusFolder is one --corpus value: the folder's name in tables and its
// path.
type corpusFolder struct{ name, dir string }

// addCorpusFlag adds --corpus NAME=DIR to fset, repeatable; order names what
// the folders' order gives ("column", "row"), or is empty.
func addCorpusFlag(fset *flag.FlagSet, order string) corpusFlag {
	usage := "data folder `NAME=DIR`; repeatable"
	if order != "" {
		usage += ", in " + order + " order"
	}
	return corpusFlag{fset.StringArray("corpus", nil, usage)}
}

// folders returns the parsed --corpus values in order; none, or a value
// other than NAME=DIR with both parts, is a usage error.
func (f corpusFlag) folders() ([]corpusFolder, error) {
	if len(*f.specs) == 0 {
		return nil, fmt.Errorf("%w: give at least one --corpus NAME=DIR", errUsage)
	}
	var out []corpusFolder
	for _, spec := range *f.specs {
		name, dir, ok := strings.Cut(spec, "=")
		if !ok || name == "" || dir == "" {
			return nil, fmt.Errorf("%w: --corpus %q: expected NAME=DIR", errUsage, spec)
		}
		out = append(out, corpusFolder{name, dir})
	}
	return out, nil
}

// addThresholdFlag adds --at T, the confidence threshold, to fset; its
// default is the everyday one (memory.DefaultMinConfidence).
func addThresholdFlag(fset *flag.FlagSet, usage string) *float64 {
	return fset.Float64("at", memory.DefaultMinConfidence, usage)
}

// bootstrapFlags are --bootstrap B and --seed SEED, defaulting to the
// paper's protocol.
type bootstrapFlags struct {
	b    *int
	seed *uint64
}

// addBootstrapFlags adds --bootstrap B and --seed SEED to fset.
func addBootstrapFlags(fset *flag.FlagSet) bootstrapFlags {
	return bootstrapFlags{fset.Int("bootstrap", experiment.PaperProtocol().B, "bootstrap resamples `B`"), fset.Uint64("seed", experiment.PaperProtocol().Seed, "bootstrap `SEED`")}
}

// protocol returns the paper's protocol with the flags' B and seed; B < 1 is
// a usage error.
func (f bootstrapFlags) protocol() (experiment.Protocol, error) {
	p := experiment.PaperProtocol()
	if *f.b < 1 {
		return p, fmt.Errorf("%w: --bootstrap %d: expected ≥ 1", errUsage, *f.b)
	}
	p.B, p.Seed = *f.b, *f.seed
	return p, nil
}

func init() {
	register(&command{
		name:    "analyzers everyday",
		summary: "the everyday search and ask on data folders: answer line shown first, answerable and unanswerable questions flagged, ask quoting the answer line, Recall@5 and Success@1, with intervals",
		usage: `--corpus NAME=DIR [--corpus NAME=DIR …] [--at T] [--passage-weights LIST] [--type-weights LIST] [--bm25 LIST] [--choose-threshold]

Each DIR is a data folder as ` + "`analyzers compare`" + ` reads it, with evidence.jsonl
naming the answer messages (role answer); noanswer.jsonl and
summaries.jsonl are used when present. Each folder is ingested into a
temporary database (its summaries imported, so the database takes the
everyday default a user's would) and every question is searched as
` + "`search`" + ` does and answered as ` + "`ask`" + ` does (extractive). Unanswerable questions:
noanswer.jsonl, and each question whose answers lie in one chat asked
against the folder without that chat. Prints one Markdown row per folder:
answer line shown in the first result, answerable questions flagged (confidence
below --at, default the everyday threshold), unanswerable questions flagged,
ask quoting the answer line, Recall@5 and Success@1, each with a 95%
bootstrap interval. --passage-weights prints one table per weight λ of the
best-passage ranking, --type-weights one per weight μ of the answer-type
prior (default: the everyday search's, ` + fmt.Sprint(memory.DefaultTypeWeight) + `; 0 turns it off), --bm25
one per pair of BM25 parameters k1:b
(default: the everyday search's, spec §9's 1.2:0.75); --choose-threshold
adds the error rates of every set and the highest threshold that flags at
most 15% of the answerable questions of every set.`,
		run: runAnalyzersEveryday,
	})
}

func runAnalyzersEveryday(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	corpora := addCorpusFlag(fset, "row")
	at := addThresholdFlag(fset, "confidence threshold `T` below which a search is flagged")
	weights := fset.Float64Slice("passage-weights", nil, "best-passage weights `LIST` (λ, comma-separated) to measure; default: the everyday one")
	typeWeights := fset.Float64Slice("type-weights", nil, "answer-type prior weights `LIST` (μ, comma-separated) to measure; default: the everyday one")
	params := fset.StringSlice("bm25", nil, "BM25 parameters `LIST` (k1:b pairs, comma-separated) to measure; default: the everyday ones")
	choose := fset.Bool("choose-threshold", false, "also print the abstention error rates and the threshold that minimises their pooled mean")
	boot := addBootstrapFlags(fset)
	if err := parseFlagsOnly(fset, args); err != nil {
		return err
	}
	folders, err := corpora.folders()
	if err != nil {
		return err
	}
	proto, err := boot.protocol()
	if err != nil {
		return err
	}
	lambdas, err := weightList("passage-weights", *weights, memory.DefaultPassageWeight)
	if err != nil {
		return err
	}
	mus, err := weightList("type-weights", *typeWeights, memory.DefaultTypeWeight)
	if err != nil {
		return err
	}
	bm25s := []bm25.Params{memory.DefaultBM25()}
	if len(*params) > 0 {
		bm25s = bm25s[:0]
		for _, s := range *params {
			p, err := parseBM25Params(s)
			if err != nil {
				return fmt.Errorf("%w: --bm25: %v", errUsage, err)
			}
			bm25s = append(bm25s, p)
		}
	}
	first := true
	for _, l := range lambdas {
		for _, mu := range mus {
			for _, p := range bm25s {
				if err := everydayTable(env, folders, everydayRanking{l, mu, p}, *at, *choose, proto, first); err != nil {
					return err
				}
				first = false
			}
		}
	}
	return nil
}

// everydayRanking is one setting of the everyday ranking to measure: the
// best-passage weight λ, the answer-type prior's μ (0: none) and BM25's
// parameters.
type everydayRanking struct {
	lambda, mu float64
	bm25       bm25.Params
}

// options are the setting as analyzers.MeasureEveryday takes it, where 0
// means the default and a negative weight none.
func (r everydayRanking) options() analyzers.EverydayOptions {
	opts := analyzers.EverydayOptions{PassageWeight: r.lambda, TypeWeight: r.mu, BM25: r.bm25}
	if r.lambda == 0 {
		opts.PassageWeight = -1
	}
	if r.mu == 0 {
		opts.TypeWeight = -1
	}
	return opts
}

// weightList is the weights given with --flag, each in [0, 1], or the
// default alone when none was given.
func weightList(flag string, given []float64, def float64) ([]float64, error) {
	if len(given) == 0 {
		return []float64{def}, nil
	}
	for _, w := range given {
		if w < 0 || w > 1 {
			return nil, fmt.Errorf("%w: --%s: %v is not in [0, 1]", errUsage, flag, w)
		}
	}
	return given, nil
}

// parseBM25Params reads "k1:b", two numbers that bm25.Params.Validate
// accepts.
func parseBM25Params(s string) (bm25.Params, error) {
	k, b, ok := strings.Cut(s, ":")
	if !ok {
		return bm25.Params{}, fmt.Errorf("%q is not k1:b (as in 1.2:0.75)", s)
	}
	k1, err1 := strconv.ParseFloat(strings.TrimSpace(k), 64)
	bv, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil {
		return bm25.Params{}, fmt.Errorf("%q: k1 and b must be numbers (as in 1.2:0.75)", s)
	}
	p := bm25.Params{K1: k1, B: bv}
	if err := p.Validate(); err != nil {
		return bm25.Params{}, fmt.Errorf("%q: %w", s, err)
	}
	return p, nil
}

// everydayTable measures the folders with the ranking r and prints their
// table (and the threshold choice when choose), after a blank line unless
// first.
func everydayTable(env *environment, folders []corpusFolder, r everydayRanking, at float64, choose bool, proto experiment.Protocol, first bool) error {
	var runs []*analyzers.EverydayRun
	var sets []analyzers.Confidences
	for _, f := range folders {
		run, err := analyzers.MeasureEveryday(f.name, f.dir, r.options())
		if err != nil {
			return err
		}
		runs = append(runs, run)
		sets = append(sets, run.Confidences()...)
	}
	if !first {
		fmt.Fprintln(env.stdout)
	}
	rt := analyzers.EverydayReport(runs, at, proto.B, proto.Seed)
	rt.Notes = append(rt.Notes, fmt.Sprintf("Best-passage weight λ = %g; answer-type prior μ = %g; BM25 %v.", r.lambda, r.mu, r.bm25))
	if err := rt.WriteMarkdown(env.stdout); err != nil {
		return err
	}
	if choose {
		fmt.Fprintln(env.stdout)
		if err := analyzers.AbstainReport(sets, analyzers.ChooseThresholdWithin(sets, analyzers.MaxFalseAbstain), at).WriteMarkdown(env.stdout); err != nil {
			return err
		}
	}
	return nil
}
