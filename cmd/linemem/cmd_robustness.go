package main

import (
	"fmt"
	"io"
	"time"

	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/robustness"
	"github.com/linemem/linemem/lib/synth"
)

func init() {
	register(&command{
		name:    "robustness",
		summary: "run the paper protocol on many synthetic seeds and write how much each result moves",
		usage: `[--seeds 1-20] [--out DIR] [--scale small|paper] [--workers N] [--work DIR]

For every seed, generates the synthetic corpus (as ` + "`linemem synth --seed N`" + `),
ingests it into a database of its own and runs the paper protocol (single
retrievers, the 126-configuration sweep and its selection, the selected hybrid
against the best single retriever). Writes robustness_seeds*.{csv,md,tex}, a
per-seed CSV, a Recall@5 figure and the per-seed results as JSON
(robustness_seeds.json, read by ` + "`linemem benchmark compare`" + `) into DIR. The output depends only on the
seeds, the scale and the bootstrap settings, not on --workers or the order of
--seeds. With --work, each seed's data and database are kept there and reused by
a rerun; without it they live in temporary folders. --db is not used.`,
		run: runRobustness,
	})
}

func runRobustness(env *environment, c *command, args []string) error {
	var dbPath string
	base := reproduce.PaperOptions("", "")
	fs := newFlagSet(env, c, &dbPath)
	seeds := fs.String("seeds", robustness.DefaultSeeds, "seed `LIST`: N, A-B, or a comma-separated list of them")
	scale := fs.String("scale", synth.ScaleSmall, "dataset `SIZE` of every seed: small or paper")
	out := fs.String("out", "results", "output folder `DIR`")
	workers := fs.Int("workers", 0, fmt.Sprintf("seeds run at once `N` (0: min(GOMAXPROCS, %d))", robustness.MaxDefaultWorkers))
	work := fs.String("work", "", "keep each seed's data and database in `DIR`/seed-N and reuse them on reruns")
	fs.StringVar(&base.Protocol.Tokenizer, "tokenizer", base.Protocol.Tokenizer, "BM25 `TOKENIZER`")
	fs.IntVar(&base.Protocol.B, "bootstrap", base.Protocol.B, "bootstrap resamples `B`, over questions and over seeds")
	fs.Uint64Var(&base.Protocol.Seed, "seed", base.Protocol.Seed, "bootstrap `SEED` (the synthetic seeds are --seeds)")
	fs.BoolVar(&base.ColumnFigures, "column-figures", false, "draw the figure one column wide (3.3 in) instead of the text width (7 in)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, rest)
	}
	list, err := robustness.ParseSeeds(*seeds)
	if err != nil {
		return fmt.Errorf("%w: --seeds: %v", errUsage, err)
	}
	if *scale != synth.ScaleSmall && *scale != synth.ScalePaper {
		return fmt.Errorf("%w: --scale %q: expected %s or %s", errUsage, *scale, synth.ScaleSmall, synth.ScalePaper)
	}
	if *workers < 0 {
		return fmt.Errorf("%w: --workers %d: expected 0 or more", errUsage, *workers)
	}
	log := io.Writer(env.stderr)
	if *quiet {
		log = io.Discard
	}
	start := time.Now()
	r, err := reproduce.RunRobustness(robustness.Options{Seeds: list, Scale: *scale, Workers: *workers, WorkDir: *work, Log: log}, base)
	if err != nil {
		return err
	}
	paths, err := r.WriteAll(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "wrote %d files to %s for %d seeds in %s\n", len(paths), *out, len(list), time.Since(start).Round(time.Millisecond))
	return nil
}
