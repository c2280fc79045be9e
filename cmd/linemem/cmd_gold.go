package main

import (
	"fmt"
	"io"
	"os"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

func init() {
	c := &command{
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
	}
	c.run = func(env *environment, args []string) error { return runGoldResolve(env, c, args) }
	register(c)
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
	st, err := openExistingStore(dbPath)
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
