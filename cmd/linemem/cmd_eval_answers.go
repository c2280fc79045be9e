package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/reproduce"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	register(&command{
		name:    "eval-answers",
		summary: "score evidence-attributed answers: citation precision/recall, token F1, exact match, abstention",
		usage: `--questions FILE --qrels FILE [--retriever NAME] [--k N] [--provider extractive|openai] [--allow-remote] [--dry-run] [--json] [--out DIR] [--answers FILE]

Answers every question as ` + "`ask`" + ` does (same retriever, provider and prompt
flags) and scores the answers against the qrels and the optional "answer"
field of the questions (spec §13): citation precision and recall, token F1
(kagome tokens) and exact match, abstention overall and where no primary
gold was retrieved; macro means with percentile-bootstrap intervals, overall
and by question type. --out DIR writes ` + reproduce.AnswersSlug + `.{csv,md,tex}
(no question or answer text); --answers FILE writes every answer as JSONL
for inspection (it holds question and chat text). With --provider openai
each question sends its own k windows; --dry-run counts what would be sent.`,
		run: runEvalAnswers,
	})
}

// metricJSON is one macro mean; null when no question defines it.
type metricJSON struct {
	N    int         `json:"n"`
	Mean *float64    `json:"mean"`
	CI   [2]*float64 `json:"ci"`
}

type groupJSON struct {
	Name      string                `json:"name"`
	Questions int                   `json:"questions"`
	Metrics   map[string]metricJSON `json:"metrics"`
}

type evalAnswersJSON struct {
	Retriever     string        `json:"retriever"`
	Provider      string        `json:"provider"`
	Model         string        `json:"model"`
	PromptVersion string        `json:"prompt_version"`
	K             int           `json:"k"`
	F1Tokenizer   string        `json:"f1_tokenizer"`
	Questions     int           `json:"questions"`
	Excluded      []string      `json:"excluded_qids"`
	Groups        []groupJSON   `json:"groups"`
	Bootstrap     bootstrapJSON `json:"bootstrap"`
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func runEvalAnswers(env *environment, c *command, args []string) error {
	var db, outDir, answersPath string
	var set questionSetFlags
	var f askFlags
	var pf priceFlags
	var b int
	var seed uint64
	fs := newFlagSet(env, c, &db)
	f.bind(fs)
	pf.bind(fs)
	set.bind(fs, "questions `FILE` (JSONL: qid, question, type, optional answer)")
	fs.StringVar(&outDir, "out", "", "write "+reproduce.AnswersSlug+".{csv,md,tex} into `DIR`")
	fs.StringVar(&answersPath, "answers", "", "write every answer as JSONL to `FILE` (holds question and chat text)")
	fs.IntVar(&b, "bootstrap", experiment.PaperProtocol().B, "bootstrap resamples `B`")
	fs.Uint64Var(&seed, "seed", experiment.PaperProtocol().Seed, "bootstrap `SEED`")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if !set.given() {
		return fmt.Errorf("%w: --questions and --qrels are required", errUsage)
	}
	if f.k < 1 || f.k > memory.MaxK {
		return fmt.Errorf("%w: --k must be between 1 and %d", errUsage, memory.MaxK)
	}
	name, err := f.providerName()
	if err != nil {
		return err
	}
	qs, qrels, _, err := set.load(env)
	if err != nil {
		return err
	}
	in, err := f.openAnswering(env, db, name)
	if err != nil {
		return err
	}
	defer in.Close()
	mem, ans, remote := in.memory, in.answer, in.remote
	ctx, stop := interruptible()
	defer stop()
	if remote != nil {
		plan, err := planAnswers(ctx, mem, remote, qs, f.k)
		if err != nil {
			return err
		}
		if f.remote.dryRun {
			fmt.Fprintf(env.stdout, "dry run: nothing sent. Destination: %s, model %s, prompt %s\n", remote.Destination(), remote.Model(), answer.PromptVersion)
			fmt.Fprintf(env.stdout, "questions: %d, answers in cache: %d, to send: %d (each: the question and its top %d windows)\n", len(qs), plan.cached, plan.toSend, f.k)
			fmt.Fprintf(env.stdout, "characters to send: %d; estimated tokens: input ≈ %d, output ≤ %d\n", plan.chars, plan.tokens, plan.toSend*f.maxOut)
			fmt.Fprintf(env.stdout, "estimated cost: %s\n", pf.cost(remote.Model(), true, plan.tokens, plan.toSend*f.maxOut))
			return nil
		}
		if plan.toSend > 0 && f.remote.allowRemote && !f.remote.quiet {
			fmt.Fprintf(env.stderr, "sending %d questions, each with its top %d conversation windows (%d characters in all, redaction: %s), to %s for %s; nothing else from the history is sent\n",
				plan.toSend, f.k, plan.chars, remote.Redactor.Describe(), remote.Destination(), remote.Model())
		}
		remote.BeforeSend = nil
	}
	progress := env.stderr
	if f.remote.quiet {
		progress = nil
	}
	items, err := answereval.Answer(ctx, mem, ans, qs, f.k, progress)
	if err != nil {
		if errors.Is(err, answer.ErrRemoteNotAllowed) {
			return remoteRefusal(err)
		}
		return err
	}
	if answersPath != "" {
		if err := writeAnswers(answersPath, items); err != nil {
			return err
		}
	}
	f1tok, err := tokenize.New(answereval.DefaultTokenizer)
	if err != nil {
		return err
	}
	run := answereval.ScoreRun(mem.Retriever(), f.k, items, qrels, f1tok, b, seed)
	run.Model = ans.Model()
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
		if _, err := reproduce.AnswersTable([]answereval.Run{run}, b, seed).WriteFiles(outDir); err != nil {
			return err
		}
	}
	if f.asJSON {
		doc := evalAnswersJSON{Retriever: mem.Retriever(), Provider: ans.Name(), Model: ans.Model(), PromptVersion: run.PromptVersion, K: f.k,
			F1Tokenizer: f1tok.Name(), Questions: len(run.Scores.QIDs), Excluded: append([]string{}, run.Scores.Excluded...), Bootstrap: bootstrapJSON{b, seed, bootstrap.Generator}}
		for _, g := range run.Groups {
			gj := groupJSON{Name: g.Name, Questions: g.Questions, Metrics: map[string]metricJSON{}}
			for m, iv := range g.Metrics {
				gj.Metrics[m] = metricJSON{N: iv.N, Mean: finite(iv.Mean), CI: [2]*float64{finite(iv.Lo), finite(iv.Hi)}}
			}
			doc.Groups = append(doc.Groups, gj)
		}
		return writeJSON(env, doc)
	}
	fmt.Fprintf(env.stdout, "%s · %s (%s) · top %d · %d questions evaluated, %d excluded (no primary gold)\n",
		mem.Retriever(), ans.Name(), ans.Model(), f.k, len(run.Scores.QIDs), len(run.Scores.Excluded))
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "group\tquestions\t"+strings.Join(answereval.Metrics, "\t")+"\t")
	for _, g := range run.Groups {
		row := []string{g.Name, fmt.Sprint(g.Questions)}
		for _, m := range answereval.Metrics {
			iv := g.Metrics[m]
			if iv.N == 0 {
				row = append(row, "–")
				continue
			}
			row = append(row, fmt.Sprintf("%.3f", iv.Mean))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

type answerPlan struct{ cached, toSend, chars, tokens int }

// planAnswers retrieves every question and builds its prompt to count what
// answering would send.
func planAnswers(ctx context.Context, mem *memory.Memory, r *answer.Remote, qs []questions.Question, k int) (answerPlan, error) {
	var p answerPlan
	for _, q := range qs {
		resp, err := mem.Search(ctx, memory.Query{Text: q.Question, K: k})
		if err != nil {
			return p, fmt.Errorf("%s: %w", q.QID, err)
		}
		if len(resp.Results) == 0 {
			continue
		}
		pr, err := r.Prompt(q.Question, resp.Results)
		if err != nil {
			return p, fmt.Errorf("%s: %w", q.QID, err)
		}
		cached, err := r.Cached(ctx, pr)
		if err != nil {
			return p, err
		}
		if cached {
			p.cached++
			continue
		}
		p.toSend++
		p.chars += utf8.RuneCountInString(pr.Input)
		p.tokens += provider.EstimateTokens(pr.Instructions) + provider.EstimateTokens(pr.Input)
	}
	return p, nil
}

// writeAnswers writes one JSON object per answered question.
func writeAnswers(path string, items []answereval.Item) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	jw := jsonl.NewWriter(f)
	for _, it := range items {
		row := struct {
			QID       string `json:"qid"`
			Type      string `json:"type"`
			Reference string `json:"reference,omitempty"`
			answer.Answer
		}{it.QID, it.Type, it.Reference, it.Answer}
		if err := jw.Write(row); err != nil {
			f.Close()
			return err
		}
	}
	if err := jw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
