package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/questions/draft"
)

// defaultContextTokens is the context of the default drafting model
// (gpt-4o-mini); every window must fit in it with the instructions and the
// answer.
const defaultContextTokens = 128_000

func init() {
	register(&command{
		name:    "questions draft",
		summary: "propose candidate questions with evidence from the stored history (openai) or import them (file)",
		usage: `--out candidates.jsonl --provider openai|file [--from FILE] [--allow-remote] [--dry-run] [--redact KINDS]

openai: the history is cut into windows of consecutive messages of one source
(--window-chars), each line "[message ID] date time sender: text"; each
window goes to the Responses API with our Japanese prompt
(lib/questions/draft/prompt_ja.txt, recorded with every candidate by
version and sha256), asking for --per-window questions with a type, a short
answer and the IDs of the messages that answer or support them. Answers are
cached with their provenance, so a rerun sends only new windows. A remote
provider refuses to run without --allow-remote; --dry-run prints the windows,
characters and estimated cost and sends nothing; --redact masks identifiers
in what is sent (candidates quote the stored messages).
file: --from FILE is an evidence file a person or another tool wrote; it is
checked (its shape, and that --db stores every source it quotes) and written
out as candidates.
Candidates are evidence lines (spec §11) with provenance fields: pass the file
to ` + "`gold pool --questions FILE --evidence FILE`" + `.`,
		run: runQuestionsDraft,
	})
}

func runQuestionsDraft(env *environment, c *command, args []string) error {
	var dbPath string
	var rf remoteFlags
	var pf priceFlags
	fs := newFlagSet(env, c, &dbPath)
	rf.bind(fs, openai.DefaultInterval)
	pf.bind(fs)
	out := fs.String("out", "", "candidates output `FILE` (JSON lines); stdout when empty")
	from := fs.String("from", "", "provider file: evidence `FILE` to import")
	windowChars := fs.Int("window-chars", draft.DefaultWindowChars, "characters of message lines per window")
	perWindow := fs.Int("per-window", draft.DefaultPerWindow, "questions asked for per window")
	sourcesFlag := fs.String("source", "", "only these source `NAMES`, comma-separated")
	maxWindows := fs.Int("max-windows", 0, "send at most `N` windows (0: all), for a first look")
	maxOut := fs.Int("max-output-tokens", draft.DefaultMaxOutputTokens, "max_output_tokens of each request")
	contextTokens := fs.Int("context-tokens", defaultContextTokens, "the model's context in tokens; every window must fit with the prompt and the answer")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	switch rf.provider {
	case "file":
		if *from == "" {
			return fmt.Errorf("%w: --provider file needs --from FILE", errUsage)
		}
		ev, err := gold.ReadEvidenceFile(*from)
		if err != nil {
			return err
		}
		if err := checkEvidenceSources(dbPath, *from, ev); err != nil {
			return err
		}
		cands := draft.FromEvidence(ev)
		if err := writeFileOr(env.stdout, *out, func(w io.Writer) error { return draft.Write(w, cands) }); err != nil {
			return err
		}
		fmt.Fprintf(env.stderr, "%d candidates from %s\n", len(cands), *from)
		return nil
	case "openai":
	case "":
		return fmt.Errorf("%w: --provider is required (openai, file)", errUsage)
	default:
		return fmt.Errorf("%w: unknown provider %q for drafting (openai, file)", errUsage, rf.provider)
	}
	if *windowChars < 200 || *perWindow < 1 || *maxWindows < 0 {
		return fmt.Errorf("%w: --window-chars ≥ 200, --per-window ≥ 1, --max-windows ≥ 0", errUsage)
	}
	red, err := rf.redactor()
	if err != nil {
		return err
	}
	opts := rf.options()
	opts.Instructions = draft.Prompt()
	opts.MaxOutputTokens = *maxOut
	model, err := provider.NewSummarizer(rf.provider, opts)
	if err != nil {
		return err
	}
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	srcs, err := st.Sources()
	if err != nil {
		return err
	}
	want := map[string]bool{}
	if *sourcesFlag != "" {
		for _, s := range strings.Split(*sourcesFlag, ",") {
			want[s] = true
		}
	}
	byName := map[string][]chat.Message{}
	var order []string
	for _, s := range srcs {
		if len(want) > 0 && !want[s.Name] {
			continue
		}
		if byName[s.Name], err = st.Messages(s.Name); err != nil {
			return err
		}
		order = append(order, s.Name)
		delete(want, s.Name)
	}
	for name := range want {
		return fmt.Errorf("--source: no source %q in %s", name, dbPath)
	}
	windows := draft.Windows(byName, order, draft.Options{WindowChars: *windowChars, PerWindow: *perWindow, Redactor: red})
	if *maxWindows > 0 && len(windows) > *maxWindows {
		windows = windows[:*maxWindows]
	}
	fixed := provider.EstimateTokens(draft.Prompt()) + *maxOut
	for _, w := range windows {
		if n := fixed + provider.EstimateTokens(w.Input); n > *contextTokens {
			return fmt.Errorf("window %d (%s) needs about %d tokens with the prompt and the answer, more than --context-tokens %d: lower --window-chars", w.Index, w.Source, n, *contextTokens)
		}
	}
	cc, err := cache.Open(st.DB())
	if err != nil {
		return err
	}
	job := draft.Job{Model: model, Cache: cc, Redaction: red.Describe(), MaxOutput: *maxOut}
	if !rf.quiet {
		job.Progress = env.stderr
	}
	ctx, stop := interruptible()
	defer stop()
	plan, err := job.Plan(ctx, windows)
	if err != nil {
		return err
	}
	if rf.dryRun {
		fmt.Fprintf(env.stdout, "dry run: nothing sent. Destination: %s\n", destination(model))
		fmt.Fprintf(env.stdout, "prompt: %s (sha256 %s), model %s, redaction: %s\n", draft.PromptVersion, draft.PromptSHA256()[:12], model.Model(), red.Describe())
		fmt.Fprintf(env.stdout, "windows: %d (%d in cache, %d to send), characters to send: %d, redactions: %d\n", plan.Windows, plan.Cached, plan.ToSend, plan.Chars, plan.Redactions)
		fmt.Fprintf(env.stdout, "estimated tokens: input ≈ %d, output ≤ %d\n", plan.InputTokens, plan.OutputTokens)
		fmt.Fprintf(env.stdout, "estimated cost: %s\n", pf.cost(model.Model(), model.Remote(), plan.InputTokens, plan.OutputTokens))
		return nil
	}
	what := fmt.Sprintf("the drafting prompt and %d windows of messages with their IDs, dates and senders (%d characters, redaction: %s) for model %s",
		plan.ToSend, plan.Chars, red.Describe(), model.Model())
	if err := rf.checkRemote(model, what, plan.ToSend); err != nil {
		return err
	}
	cands, rep, runErr := job.Run(ctx, windows)
	if err := writeFileOr(env.stdout, *out, func(w io.Writer) error { return draft.Write(w, cands) }); err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "%d candidates from %d windows (%d sent, %d from cache, %d failed, %d duplicate questions)\n",
		len(cands), rep.Windows, rep.Sent, rep.Cached, len(rep.Failed), rep.Duplicates)
	for _, p := range rep.Problems {
		fmt.Fprintf(env.stderr, "left out: %s\n", p)
	}
	for _, f := range rep.Failed {
		fmt.Fprintf(env.stderr, "failed: %s\n", f)
	}
	if runErr != nil {
		return runErr
	}
	if len(rep.Failed) > 0 {
		return fmt.Errorf("%d window(s) failed; rerun to retry them (answered windows come from the cache)", len(rep.Failed))
	}
	return nil
}

// checkEvidenceSources opens the database at dbPath (which must exist) and
// reports the first evidence item of file whose source is not stored there.
func checkEvidenceSources(dbPath, file string, ev []gold.Evidence) error {
	st, err := openExistingStore(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	srcs, err := st.Sources()
	if err != nil {
		return err
	}
	stored := map[string]bool{}
	names := make([]string, 0, len(srcs))
	for _, s := range srcs {
		stored[s.Name] = true
		names = append(names, strconv.Quote(s.Name))
	}
	for _, e := range ev {
		for _, it := range e.Items {
			if !stored[it.Source] {
				return fmt.Errorf("%s: question %q: evidence source %q is not stored in %s (its sources: %s)",
					file, e.QID, it.Source, dbPath, strings.Join(names, ", "))
			}
		}
	}
	return nil
}
