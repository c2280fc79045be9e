package main

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	c := &command{
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
	}
	c.run = func(env *environment, args []string) error { return runAnalyzersCompare(env, c, args) }
	register(c)
}

func runAnalyzersCompare(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	corpora := fset.StringArray("corpus", nil, "data folder `NAME=DIR`; repeatable, in column order")
	toks := fset.String("tokenizers", strings.Join(analyzersTokenizers(), ","), "`LIST` of tokenizers, comma-separated, in row order")
	b := fset.Int("bootstrap", bootstrap.DefaultB, "bootstrap resamples `B`")
	seed := fset.Uint64("seed", bootstrap.DefaultSeed, "bootstrap `SEED`")
	rest, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, rest[0])
	}
	if len(*corpora) == 0 {
		return fmt.Errorf("%w: give at least one --corpus NAME=DIR", errUsage)
	}
	if *b < 1 {
		return fmt.Errorf("%w: --bootstrap %d: expected ≥ 1", errUsage, *b)
	}
	names := strings.Split(*toks, ",")
	for _, n := range names {
		if _, err := tokenize.New(n); err != nil {
			return fmt.Errorf("%w: --tokenizers: %v", errUsage, err)
		}
	}
	var loaded []*analyzers.Corpus
	for _, spec := range *corpora {
		name, dir, ok := strings.Cut(spec, "=")
		if !ok || name == "" || dir == "" {
			return fmt.Errorf("%w: --corpus %q: expected NAME=DIR", errUsage, spec)
		}
		corpus, err := analyzers.LoadFolder(name, dir)
		if err != nil {
			return err
		}
		loaded = append(loaded, corpus)
	}
	proto := experiment.PaperProtocol()
	proto.B, proto.Seed = *b, *seed
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
	c := &command{
		name:    "analyzers abstain",
		summary: "error rates of the everyday search's \"may not hold the answer\" at each confidence threshold, on data folders",
		usage: `--corpus NAME=DIR [--corpus NAME=DIR …] [--at T]

For each data folder (as ` + "`analyzers compare`" + ` reads it), the confidence of the top
window (everyday tokenizer, BM25 over raw_text) of its answerable questions,
of noanswer.jsonl when there is one, and of each question whose gold lies in
one source searched in the folder without that source. Prints the error
rates at --at (default: the everyday threshold) and the threshold that
minimises their pooled mean.`,
	}
	c.run = func(env *environment, args []string) error { return runAnalyzersAbstain(env, c, args) }
	register(c)
}

func runAnalyzersAbstain(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	corpora := fset.StringArray("corpus", nil, "data folder `NAME=DIR`; repeatable")
	at := fset.Float64("at", memory.DefaultMinConfidence, "confidence threshold `T` to report")
	rest, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, rest[0])
	}
	if len(*corpora) == 0 {
		return fmt.Errorf("%w: give at least one --corpus NAME=DIR", errUsage)
	}
	var sets []analyzers.Confidences
	for _, spec := range *corpora {
		name, dir, ok := strings.Cut(spec, "=")
		if !ok || name == "" || dir == "" {
			return fmt.Errorf("%w: --corpus %q: expected NAME=DIR", errUsage, spec)
		}
		corpus, err := analyzers.LoadFolder(name, dir)
		if err != nil {
			return err
		}
		na, err := analyzers.LoadNoAnswer(dir)
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
