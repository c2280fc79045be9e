package main

import (
	"fmt"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/regularfile"
)

func init() {
	register(&command{
		name:    "summaries import",
		summary: "import chunk summaries from JSONL {\"chunk_id\", \"summary\"}",
		usage: `FILE

Each line of FILE is {"chunk_id": str, "summary": str}; for a chunk_id given
twice the last line wins. A bad line (malformed JSON, wrong types, a chunk_id
not in the database) is reported as FILE:LINE: expected … and nothing is
imported. The everyday search's index is built again at once, as after
an ingest, so that the first search does not pay for it.`,
		run: runSummariesImport,
	})
}

func runSummariesImport(env *environment, c *command, args []string) error {
	var dbPath string
	fset := newFlagSet(env, c, &dbPath)
	path, err := parseOneFile(fset, args)
	if err != nil {
		return err
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
	n, err := st.ImportSummaries(path, f)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "imported %d summaries from %s\n", n, path)
	if n > 0 {
		start := time.Now()
		if _, err := memory.Open(st, memory.Options{}); err != nil {
			fmt.Fprintf(env.stderr, "warning: the everyday search index was not built (the first search will build it): %v\n", err)
		} else {
			fmt.Fprintf(env.stderr, "everyday search index built in %s\n", time.Since(start).Round(time.Millisecond))
		}
	}
	return nil
}
