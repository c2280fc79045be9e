package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/linemem/linemem/lib/benchmark"
	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/reproduce"
)

func init() {
	register(&command{
		name:    "benchmark",
		summary: "run the paper protocol on a converted public data set, pooled and per user, into a benchmark folder",
		usage: `--data DIR --out DIR [--work DIR] [--name NAME] [--units LIST] [--embed-model MODEL [--embed-url URL]]
       compare --seeds-results DIR --out DIR [--column-figures] BENCHMARK_DIR...

DIR is a folder written by ` + "`linemem datasets convert … --per-user`" + `. Writes the
paper's tables and figures on the pooled folder (Tables 1, 3–9, the ceiling,
Figures 1–6), the per-user tables (users_per_user, users_distribution,
users_claims, with the hybrid's gain held out) and users.json from DIR/users/*,
the benchmark-native metrics and dataset.json (provenance and mapping counts)
into --out: aggregates only. A folder with native questions (LoCoMo's
native.jsonl) also gets the study at the field's units: turn, session and chunk
per conversation and the pooled turn haystack, with LoCoMo's own recall and the
random-ranking floor (units_recall, units_selection, units.json); their turn
and session runs, named by LoCoMo's IDs, go to --work/units-runs for
scripts/locomo_recall.py. Databases and a copy of each user folder (with the
vectors shipped to it) live in --work (reused by reruns); nothing is written
into --data. Every input is checked before anything is written; users without
an answerable question are skipped and counted. --out is replaced as a whole
when the run completes (an earlier result stays intact until then; a second
run into it is refused).
--embed-model MODEL searches by vectors of MODEL that ` + "`linemem embed`" + ` stored
in --work/pooled.db instead of the local LSA model fitted on the pooled corpus; the per-user runs take the pooled study's vectors
either way. With --embed-url URL (a loopback address of an OpenAI-compatible
embeddings server serving MODEL) the units study embeds its documents and
questions with MODEL too; without it that study is left out (its rows would be
LSA's) (scripts/benchmarks-neural.sh). --units turn,session,chunk limits the
units study to those units (the pooled corpus runs at each of turn and chunk
that is listed).

compare reads users.json of each BENCHMARK_DIR and the saved synthetic
robustness run of --seeds-results (results/robustness_seeds.json) and writes users_vs_seeds_claims,
users_vs_seeds_recall and the users_vs_seeds_recall5 figure into --out.
--db is not used.`,
		run: runBenchmark,
	})
}

func runBenchmark(env *environment, c *command, args []string) error {
	var dbPath string
	opts := benchmark.Options{Options: reproduce.PaperOptions("", "")}
	fs := newFlagSet(env, c, &dbPath)
	fs.StringVar(&opts.DataDir, "data", "", "converted data folder `DIR`")
	out := fs.String("out", "", "output folder `DIR`")
	work := fs.String("work", "", "folder `DIR` for the databases (default: DIR/../<name>.work)")
	name := fs.String("name", "", "data set `NAME` in captions (default: the data folder's name)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.StringVar(&opts.EmbedModel, "embed-model", "", "embedding `MODEL` whose vectors the --work pooled database holds (default: the local LSA model)")
	units := fs.String("units", "", "comma-separated units of the units study: turn, session, chunk (default: all; the pooled haystack runs with turn)")
	embedURL := fs.String("embed-url", "", "with --embed-model: the loopback `URL` of an OpenAI-compatible embeddings server that embeds the units study's documents (default: LSA fitted per unit)")
	seedsResults := fs.String("seeds-results", "results", "compare: folder `DIR` holding robustness_seeds.json")
	fs.BoolVar(&opts.ColumnFigures, "column-figures", false, "draw figures one column wide (3.3 in) instead of the text width (7 in)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 && rest[0] == "compare" {
		return compareBenchmarks(env, *seedsResults, *out, opts.ColumnFigures, rest[1:])
	}
	if len(rest) > 0 || opts.DataDir == "" || *out == "" {
		return fmt.Errorf("%w: --data DIR and --out DIR are required, no arguments", errUsage)
	}
	if *units != "" {
		for _, unit := range strings.Split(*units, ",") {
			if !slices.Contains(reproduce.PerConversationUnits, unit) {
				return fmt.Errorf("%w: --units %s: expected a comma-separated list of %s", errUsage, *units, strings.Join(reproduce.PerConversationUnits, ", "))
			}
			opts.Units = append(opts.Units, unit)
		}
	}
	if *embedURL != "" {
		if opts.UnitEncoder, err = unitEncoder(opts.EmbedModel, *embedURL); err != nil {
			return err
		}
	}
	if *name == "" {
		*name = filepath.Base(filepath.Clean(opts.DataDir))
	}
	if *work == "" {
		*work = filepath.Join(filepath.Dir(filepath.Clean(opts.DataDir)), *name+".work")
	}
	if err := checkBenchmarkFlags(opts.DataDir, *out, *work); err != nil {
		return err
	}
	opts.Log = env.stderr
	if *quiet {
		opts.Log = io.Discard
	}
	opts.Name, opts.Out, opts.Work = *name, *out, *work
	start := time.Now()
	rep, err := benchmark.Run(opts)
	if err != nil {
		return err
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(env.stdout, "skipped %d users without answerable questions: %s\n", len(rep.Skipped), strings.Join(rep.Skipped, ", "))
	}
	if opts.UnitEncoder != nil {
		fmt.Fprintf(env.stdout, "units study: %d texts embedded with %s at %s\n", opts.UnitEncoder.Sent, opts.UnitEncoder.Embedder.Model(), *embedURL)
	}
	fmt.Fprintf(env.stdout, "wrote %d files to %s in %s\n", len(rep.Written), *out, time.Since(start).Round(time.Millisecond))
	return nil
}

// checkBenchmarkFlags refuses folders that would make benchmark write into
// its input: --data must be a folder; --out and --work lie outside --data,
// and --data and --work outside --out (which is replaced as a whole).
func checkBenchmarkFlags(data, out, work string) error {
	info, err := os.Stat(data)
	if err != nil {
		return fmt.Errorf("%w; `linemem datasets convert` writes it (and `linemem datasets fetch` downloads the original)", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%w: --data %s is not a folder: give the folder `linemem datasets convert` wrote", errUsage, data)
	}
	switch {
	case within(out, data):
		return fmt.Errorf("%w: --out %s lies in --data %s: nothing is written into the data folder", errUsage, out, data)
	case within(data, out):
		return fmt.Errorf("%w: --data %s lies in --out %s, which is replaced as a whole", errUsage, data, out)
	case within(work, out):
		return fmt.Errorf("%w: --work %s lies in --out %s, which is replaced as a whole", errUsage, work, out)
	case within(work, data):
		return fmt.Errorf("%w: --work %s lies in --data %s: nothing is written into the data folder", errUsage, work, data)
	}
	return nil
}

// unitEncoder embeds the units study's documents with model at url, which
// must be a loopback address: the benchmark has no --allow-remote.
func unitEncoder(model, url string) (*beyond.Encoder, error) {
	if model == "" {
		return nil, fmt.Errorf("%w: --embed-url needs --embed-model", errUsage)
	}
	if err := openai.CheckBaseURL("--embed-url", url); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if !openai.IsLoopbackURL(url) {
		return nil, fmt.Errorf("%w: --embed-url %s is not a loopback address; the benchmark sends the data set's text to local servers only", errUsage, url)
	}
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Config: openai.Config{Model: model, BaseURL: url, Timeout: 10 * time.Minute}})
	if err != nil {
		return nil, err
	}
	return &beyond.Encoder{Embedder: e}, nil
}

func compareBenchmarks(env *environment, seedsResults, out string, columnFigures bool, dirs []string) error {
	if out == "" || len(dirs) == 0 {
		return fmt.Errorf("%w: compare needs --out DIR and at least one benchmark folder", errUsage)
	}
	var users []*reproduce.Users
	for _, d := range dirs {
		u, err := reproduce.LoadUsers(filepath.Join(d, reproduce.BenchmarkUsersFile))
		if err != nil {
			return fmt.Errorf("%w (written by `linemem benchmark --out %s`)", err, d)
		}
		users = append(users, u)
	}
	c, err := reproduce.NewComparison(seedsResults, users)
	if err != nil {
		return err
	}
	c.ColumnFigures = columnFigures
	paths, err := c.WriteAll(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "wrote %d files to %s\n", len(paths), out)
	return nil
}
