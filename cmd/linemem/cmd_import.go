package main

import (
	"fmt"
	"os"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/store"
)

func init() {
	s := &command{
		name:    "summaries import",
		summary: "import chunk summaries from JSONL {\"chunk_id\", \"summary\"}",
		usage: `FILE

Each line of FILE is {"chunk_id": str, "summary": str}; for a chunk_id given
twice the last line wins. A bad line (malformed JSON, wrong types, a chunk_id
not in the database) is reported as FILE:LINE: expected … and nothing is
imported.`,
	}
	s.run = func(env *environment, args []string) error { return runSummariesImport(env, s, args) }
	register(s)

	v := &command{
		name:    "vectors import",
		summary: "import chunk or query vectors from JSONL {\"key\", \"vector\"}",
		usage: `--model NAME (--rep REP [--input-cap N] | --queries) FILE

Each line of FILE is {"key": str, "vector": [number, …]}. With --rep the key is
a chunk_id and REP is raw_text, summary or embedding_text; with --queries the
key is the question text, verbatim. All vectors of one model share one
dimension. A bad line (malformed JSON, a non-finite element, a wrong
dimension, an unknown chunk_id) is reported as FILE:LINE: expected … and
nothing is imported.`,
	}
	v.run = func(env *environment, args []string) error { return runVectorsImport(env, v, args) }
	register(v)
}

// importOneFile returns the single FILE argument of an import command.
func importOneFile(fset *flag.FlagSet, positional []string) (string, error) {
	if len(positional) != 1 {
		fset.Usage()
		return "", fmt.Errorf("%w: expected exactly one FILE, got %d arguments", errUsage, len(positional))
	}
	return positional[0], nil
}

func runSummariesImport(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	positional, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	path, err := importOneFile(fset, positional)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	n, err := st.ImportSummaries(path, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "imported %d summaries from %s\n", n, path)
	return nil
}

func runVectorsImport(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	rep := fset.String("rep", "", "representation `REP` the chunk vectors embed: raw_text, summary or embedding_text")
	model := fset.String("model", "", "embedding model `NAME` (required)")
	inputCap := fset.Int("input-cap", 0, "embedding input cap `N` the chunk vectors were made with (0 = unknown)")
	queries := fset.Bool("queries", false, "FILE holds query vectors keyed by question text")
	positional, err := parseInterspersed(fset, args)
	if err != nil {
		return err
	}
	path, err := importOneFile(fset, positional)
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
	f, err := os.Open(path)
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
