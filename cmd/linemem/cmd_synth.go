package main

import (
	"encoding/json"
	"fmt"

	"github.com/linemem/linemem/lib/synth"
)

func init() {
	register(&command{
		name:    "synth",
		summary: "generate the synthetic LINE history with questions, evidence, gold and summaries",
		usage: `--out DIR [--seed N] [--scale small|paper] [--json]

Writes DIR/sources/*.json (JSON-by-date exports), questions.jsonl,
evidence.jsonl, qrels.txt (resolved from the evidence over the chunks that
ingest would build) and summaries.jsonl (template-written, one per chunk).
The output depends only on --seed and --scale; the defaults regenerate
data/synthetic byte for byte. --db is not used.`,
		run: runSynth,
	})
}

func runSynth(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	seed := fset.Uint64("seed", synth.DefaultSeed, "random seed `N`")
	scale := fset.String("scale", synth.ScaleSmall, "dataset `SIZE`: small (committed in data/synthetic) or paper (358,896 messages)")
	out := fset.String("out", "", "output `DIR` (created if missing)")
	asJSON := fset.Bool("json", false, "print the statistics as JSON")
	rest, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *out == "" {
		fset.Usage()
		return fmt.Errorf("%w: --out DIR is required and no arguments are taken", errUsage)
	}
	ds, err := synth.Generate(synth.Config{Seed: *seed, Scale: *scale})
	if err != nil {
		return err
	}
	if err := ds.WriteDir(*out); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ds.Stats)
	}
	if err := ds.Stats.WriteTable(env.stdout); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "wrote %d files to %s\n", len(ds.FileNames()), *out)
	return nil
}
