package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/linemem/linemem/lib/atomicdir"
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/regularfile"
)

func init() {
	register(&command{
		name:    "datasets",
		summary: "convert public conversation data sets (LoCoMo, RealPersonaChat, LongMemEval) into data folders, or fetch them",
		usage: `convert locomo|realpersonachat|longmemeval IN OUT [--per-user] [--users N] [--questions N]
       fetch locomo|realpersonachat DIR

convert writes OUT/sources/*.json (JSON-by-date exports), questions.jsonl,
evidence.jsonl, qrels.txt (resolved from the evidence over the chunks ingest
builds), summaries.jsonl, noanswer.jsonl (the abstention set) and dataset.json
(the original's sha256, the converter's version and every mapping decision's
counts), the layout ` + "`linemem reproduce --data OUT`" + ` reads. The output depends
only on IN and the flags. With --per-user each user's folder is written to
OUT/users/USER as well. OUT is new, empty or an earlier conversion, which is
replaced as a whole: the new folder is built beside OUT (.OUT.tmp-*) and
renamed into place when complete, so a failed or killed convert leaves the
earlier one intact; a second convert into OUT at the same time is refused.
Any other non-empty folder is refused. IN must be a regular file.
IN is locomo10.json, dialogues.jsonl.gz or longmemeval_{s,m,oracle}.json. The converted text keeps the data set's licence
(LoCoMo CC BY-NC 4.0, RealPersonaChat CC BY-SA 4.0): keep it out of the
repository (build/ is ignored).

fetch downloads a data set at the commit pinned in lib/datasets and checks its
sha256 (see docs/reproducing.md, "Public conversation data sets"). --db is not used.`,
		run: runDatasets,
	})
}

func runDatasets(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	perUser := fs.Bool("per-user", false, "also write one data folder per user into OUT/users/USER")
	users := fs.Int("users", datasets.DefaultRPCUsers, "realpersonachat: participants with the most dialogues that become users `N`")
	perQ := fs.Int("questions", datasets.DefaultRPCQuestions, "realpersonachat: known-item questions per user `N`")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		fs.Usage()
		return fmt.Errorf("%w: expected convert or fetch", errUsage)
	}
	switch rest[0] {
	case "convert":
		if len(rest) != 4 {
			return fmt.Errorf("%w: expected convert DATASET IN OUT, got %v", errUsage, rest[1:])
		}
		if (fs.Changed("users") || fs.Changed("questions")) && rest[1] != datasets.RealPersonaChatName {
			return fmt.Errorf("%w: --users and --questions apply to %s only", errUsage, datasets.RealPersonaChatName)
		}
		return convertDataset(env, rest[1], rest[2], rest[3], *perUser, datasets.RPCOptions{Users: *users, Questions: *perQ})
	case "fetch":
		if len(rest) != 3 {
			return fmt.Errorf("%w: expected fetch DATASET DIR, got %v", errUsage, rest[1:])
		}
		return fetchDataset(env, rest[1], rest[2])
	}
	return fmt.Errorf("%w: expected convert or fetch, got %q", errUsage, rest[0])
}

func convertDataset(env *environment, name, in, out string, perUser bool, rpc datasets.RPCOptions) error {
	switch name {
	case datasets.LoCoMoName, datasets.RealPersonaChatName, datasets.LongMemEvalName:
	default:
		return fmt.Errorf("%w: data set %q: expected %s, %s or %s", errUsage, name, datasets.LoCoMoName, datasets.RealPersonaChatName, datasets.LongMemEvalName)
	}
	if err := regularfile.Check(in); err != nil {
		if name == datasets.LongMemEvalName {
			return fmt.Errorf("%w; download longmemeval_s_cleaned.json (or _m_, _oracle) from %s", err, datasets.LongMemEvalURL)
		}
		return fmt.Errorf("%w; `linemem datasets fetch %s DIR` downloads it", err, name)
	}
	var f *datasets.Folder
	var noAnswerUser []string
	var err error
	switch name {
	case datasets.LoCoMoName:
		f, noAnswerUser, err = datasets.ReadLoCoMo(in)
	case datasets.RealPersonaChatName:
		f, noAnswerUser, err = datasets.ReadRealPersonaChat(in, rpc)
	case datasets.LongMemEvalName:
		f, noAnswerUser, err = datasets.ReadLongMemEval(in)
	}
	if err != nil {
		return err
	}
	b, err := writeConverted(f, out, perUser, noAnswerUser)
	if err != nil {
		return err
	}
	i := b.Info
	fmt.Fprintf(env.stdout, "%s: %d users, %d sources, %d messages, %d chunks (%d messages in no chunk)\n", i.Dataset, len(i.Users), i.Sources, i.Messages, i.Chunks, i.MessagesInNoChunk)
	fmt.Fprintf(env.stdout, "questions %d %v, no-answer %d, dropped %d; evidence items %d: %d exact, %d by excerpt, %d unmatched, %d in no chunk\n",
		i.Questions, i.QuestionsByType, i.NoAnswer, len(i.Dropped), i.Gold.EvidenceItems, i.Gold.Exact, i.Gold.Excerpt, i.Gold.Unmatched, i.Gold.InNoChunk)
	fmt.Fprintf(env.stdout, "wrote %s\n", out)
	return nil
}

// writeConverted writes f into out as a whole (lib/atomicdir): it
// is built in a temporary folder beside out and swapped into place when
// complete, so that a failure or a kill leaves an earlier conversion in out
// as it was, and a second convert into out at the same time is refused. out
// must be new, empty or an earlier conversion (it holds dataset.json).
func writeConverted(f *datasets.Folder, out string, perUser bool, noAnswerUser []string) (*datasets.Built, error) {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(out)), 0o755); err != nil {
		return nil, err
	}
	d, err := atomicdir.Begin(out, func(existing string) error {
		entries, err := os.ReadDir(existing)
		if err != nil || len(entries) == 0 {
			return err
		}
		if _, err := os.Stat(filepath.Join(existing, datafolder.DatasetFile)); err != nil {
			return fmt.Errorf("%s is not empty and holds no %s of an earlier conversion: convert into a new or empty folder", existing, datafolder.DatasetFile)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer d.Abort()
	b, err := f.Write(d.Path(), perUser, noAnswerUser)
	if err != nil {
		return nil, err
	}
	return b, d.Commit()
}

func fetchDataset(env *environment, name, dir string) error {
	if _, ok := datasets.Sources[name]; !ok {
		hint := ""
		if name == datasets.LongMemEvalName {
			hint = fmt.Sprintf(" (download longmemeval_s_cleaned.json, _m_ or _oracle from %s)", datasets.LongMemEvalURL)
		}
		return fmt.Errorf("%w: fetch %q: expected %s or %s%s", errUsage, name, datasets.LoCoMoName, datasets.RealPersonaChatName, hint)
	}
	written, err := datasets.Fetch(context.Background(), http.DefaultClient, name, dir)
	for _, p := range written {
		fmt.Fprintf(env.stdout, "wrote %s (sha256 checked)\n", p)
	}
	return err
}
