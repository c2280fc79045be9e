package main

import (
	"context"
	"fmt"

	"github.com/linemem/linemem/lib/expand"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/provider/retry"
	"github.com/linemem/linemem/lib/questions"
)

func init() {
	register(&command{
		name:    "decompose",
		summary: "split questions into sub-queries with an LLM, for multi:llm:… retrievers",
		usage: `--questions FILE [--model M] [--base-url URL] [--allow-remote] [--dry-run]

Sends each question (never chat text) to the Responses API with the versioned
Japanese decomposition prompt (` + expand.PromptVersion + `) and stores the answer in the
database's provider cache with its provenance; a rerun sends only questions
without a stored answer. multi:llm:{retriever} then reads the stored
sub-queries offline. A remote service refuses to run without --allow-remote;
--dry-run prints how many questions would be sent and sends nothing. The API
key is read from OPENAI_API_KEY only.`,
		run: runDecompose,
	})
}

func runDecompose(env *environment, c *command, args []string) error {
	var dbPath string
	fs := newFlagSet(env, c, &dbPath)
	qpath := fs.String("questions", "", "questions `FILE` (JSONL)")
	model := fs.String("model", "", "requested `MODEL` (default "+openai.DefaultSummaryModel+")")
	baseURL := fs.String("base-url", "", "service `URL` (default: OPENAI_BASE_URL, else https://api.openai.com/v1/)")
	allowRemote := fs.Bool("allow-remote", false, "allow sending the questions to the remote service")
	dryRun := fs.Bool("dry-run", false, "print how many questions would be sent; send nothing")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || *qpath == "" {
		return fmt.Errorf("%w: decompose takes --questions FILE and no arguments", errUsage)
	}
	qs, err := questions.ReadFile(*qpath)
	if err != nil {
		return err
	}
	st, cc, err := openStoreAndCache(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	gen, err := expand.NewOpenAIGenerator(openai.Config{Model: *model, BaseURL: *baseURL, Timeout: openai.DefaultTimeout, Retry: retry.Default(1)})
	if err != nil {
		return err
	}
	ctx := context.Background()
	offline := &expand.Decomposer{Gen: gen, Cache: cc, Offline: true}
	var todo []questions.Question
	for _, q := range qs {
		if _, err := offline.Answer(ctx, q.Question); err != nil {
			todo = append(todo, q)
		}
	}
	what := fmt.Sprintf("%d of %d questions to %s (%s, %s)", len(todo), len(qs), endpointOf(gen), gen.Model(), expand.PromptVersion)
	if *dryRun || len(todo) == 0 {
		fmt.Fprintf(env.stdout, "would send %s; nothing was sent\n", what)
		return nil
	}
	if gen.Remote() && !*allowRemote {
		return fmt.Errorf("this run would send %s.\nNothing was sent. Add --allow-remote to send them, or --dry-run to count", what)
	}
	online := &expand.Decomposer{Gen: gen, Cache: cc}
	for i, q := range todo {
		subs, err := online.Expand(ctx, q.Question)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stderr, "[%d/%d] %s: %d sub-queries\n", i+1, len(todo), q.QID, len(subs))
	}
	fmt.Fprintf(env.stdout, "decomposed %d questions\n", len(todo))
	return nil
}
