package main

import (
	"fmt"

	"github.com/linemem/linemem/lib/regularfile"
	"github.com/linemem/linemem/lib/store"
)

func init() {
	register(&command{
		name:    "vectors import",
		summary: "import chunk or query vectors from JSONL {\"key\", \"vector\"}",
		usage: `--model NAME (--rep REP [--input-cap N] | --queries) FILE

Each line of FILE is {"key": str, "vector": [number, …]}. With --rep the key is
a chunk_id and REP is raw_text, summary or embedding_text; with --queries the
key is the question text, verbatim. All vectors of one model share one
dimension. A bad line (malformed JSON, a non-finite element, a wrong
dimension, an unknown chunk_id) is reported as FILE:LINE: expected … and
nothing is imported.`,
		run: runVectorsImport,
	})
}

func runVectorsImport(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	rep := fset.String("rep", "", "representation `REP` the chunk vectors embed: raw_text, summary or embedding_text")
	model := fset.String("model", "", "embedding model `NAME` (required)")
	inputCap := fset.Int("input-cap", 0, "embedding input cap `N` the chunk vectors were made with (0 = unknown)")
	queries := fset.Bool("queries", false, "FILE holds query vectors keyed by question text")
	path, err := parseOneFile(fset, args)
	if err != nil {
		return err
	}
	switch {
	case *model == "":
		return fmt.Errorf("%w: --model is required", errUsage)
	case *queries && (*rep != "" || *inputCap != 0):
		return fmt.Errorf("%w: --queries takes no --rep or --input-cap", errUsage)
	case !*queries && *rep == "":
		return fmt.Errorf("%w: give --rep REP for chunk vectors or --queries for query vectors", errUsage)
	case !*queries:
		if err := store.ValidRep(*rep); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	f, err := regularfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if *queries {
		n, err := st.ImportQueryVectors(*model, path, f)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "imported %d query vectors (model %s) from %s\n", n, *model, path)
		return nil
	}
	n, err := st.ImportVectors(*rep, *model, *inputCap, path, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "imported %d %s vectors (model %s) from %s\n", n, *rep, *model, path)
	return nil
}
