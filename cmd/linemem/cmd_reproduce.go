package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	register(&command{
		name:    "reproduce",
		summary: "run the paper's whole pipeline on a data folder and write every table and figure",
		usage: `--data DIR --out DIR [--only SLUG]

DIR holds sources/ (exports), questions.jsonl, qrels.txt (or evidence.jsonl,
resolved into gold), summaries.jsonl and optionally vectors_summary.jsonl,
vectors_embedding_text.jsonl and query_vectors.jsonl. Without shipped vectors
the local LSA embedder is fitted on the corpus. The database (--db) is reused
by reruns: unchanged sources and stored vectors are not recomputed.
--only SLUG writes one artefact of the registry (table1, figure2,
beyond_tokenizers, …) and no manifest.`,
		run: runReproduce,
	})
}

func runReproduce(env *environment, c *command, args []string) error {
	opts := reproduce.PaperOptions("", "")
	var out, only string
	var quiet bool
	fs := newFlagSet(env, c, &opts.DBPath)
	fs.StringVar(&opts.DataDir, "data", "data/synthetic", "data folder `DIR`")
	fs.StringVar(&out, "out", "results", "output folder `DIR` for tables, figures and manifest.json")
	fs.StringVar(&opts.Protocol.Tokenizer, "tokenizer", opts.Protocol.Tokenizer, "BM25 `TOKENIZER`: "+strings.Join(tokenize.Names(), ", "))
	fs.StringVar(&opts.EmbedModel, "embed-model", "", "embedding `MODEL` (default: vectors shipped with the data, else the local LSA embedder)")
	fs.IntVar(&opts.Protocol.B, "bootstrap", opts.Protocol.B, fmt.Sprintf("bootstrap resamples `B`, 1 to %d", experiment.MaxBootstrap))
	fs.BoolVar(&opts.SourceNames, "manifest-source-names", false, "name source files in manifest.json (private: export names carry chat partners' names); default sources/#NNN with hash and size")
	fs.BoolVar(&opts.AllowMissingGold, "allow-missing-gold", false, "warn, rather than stop, when a qrels chunk ID is not in the corpus (it still counts in the denominators)")
	fs.Uint64Var(&opts.Protocol.Seed, "seed", opts.Protocol.Seed, "bootstrap `SEED` (0 is a seed like any other)")
	fs.BoolVar(&opts.ColumnFigures, "column-figures", false, "draw figures one column wide (3.3 in) instead of the text width (7 in)")
	fs.StringVar(&only, "only", "", "write only the artefact `SLUG`: "+strings.Join(reproduce.Slugs(), ", "))
	fs.BoolVar(&quiet, "quiet", false, "no progress on stderr")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, rest)
	}
	if err := experiment.CheckBootstrap(opts.Protocol.B); err != nil {
		return fmt.Errorf("%w: --bootstrap: %v", errUsage, err)
	}
	opts.Log = env.stderr
	if quiet {
		opts.Log = io.Discard
	}
	if only != "" {
		if _, err := reproduce.Lookup(only); err != nil {
			return fmt.Errorf("%w: --only: %v", errUsage, err)
		}
		opts.Artefacts = []string{only}
	}
	start := time.Now()
	s, err := reproduce.Prepare(opts)
	if err != nil {
		return err
	}
	defer s.Close()
	var paths []string
	if only != "" {
		paths, err = reproduce.Write(s, only, out)
	} else {
		paths, err = s.WriteAll(out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "wrote %d files to %s in %s\n", len(paths), out, time.Since(start).Round(time.Millisecond))
	for _, t := range s.Timings {
		fmt.Fprintf(opts.Log, "  %-40s %s\n", t.Step, t.Duration.Round(time.Millisecond))
	}
	return nil
}
