package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/job"
	"github.com/linemem/linemem/lib/provider/openai"
	_ "github.com/linemem/linemem/lib/provider/summaryfile" // registers the file provider
	"github.com/linemem/linemem/lib/redact"
	"github.com/linemem/linemem/lib/regularfile"
	"github.com/linemem/linemem/lib/represent"
)

func init() {
	register(&command{
		name:    "summarize",
		summary: "generate the summary of every chunk that has none (spec §7)",
		usage: `--provider NAME [--model M] [--allow-remote] [--dry-run] [--redact KINDS]

Providers: openai (Responses API; remote), file (summaries from --summaries
FILE, JSONL {"chunk_id", "summary"}; offline). Each chunk's input is the spec
§7 template, a blank line and the first 7,000 characters of raw_text (after
--redact). Results are cached in the database by input, provider, model and
parameters, with provenance (returned model, attempts, latency, tokens, SDK
version, span sent, redaction); a rerun sends only what is missing, so an
interrupted run resumes where it stopped. A remote provider refuses to run
without --allow-remote; --dry-run prints counts, characters and an estimated
cost and sends nothing. The API key is read from OPENAI_API_KEY only.`,
		run: runSummarize,
	})
}

// remoteFlags are the settings shared by summarize and embed.
type remoteFlags struct {
	provider     string
	model        string
	allowRemote  bool
	dryRun       bool
	redactKinds  string
	redactNames  string
	baseURL      string
	organization string
	timeout      time.Duration
	interval     time.Duration
	maxAttempts  int
	rpm, tpm     int
	failFast     bool
	quiet        bool
	maxFailures  int
}

func (f *remoteFlags) bind(fs *flag.FlagSet, defaultInterval time.Duration) {
	fs.StringVar(&f.provider, "provider", "", "provider `NAME` (required)")
	fs.StringVar(&f.model, "model", "", "requested `MODEL` (default: the provider's)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow sending chat-derived text to a remote provider (one on a loopback address is this machine: no flag needed)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print counts, characters and estimated cost; send nothing")
	fs.StringVar(&f.redactKinds, "redact", "", "replace `KINDS` before sending: comma list of email, url, phone, name; all = email,url,phone (+ name with --redact-names)")
	fs.StringVar(&f.redactNames, "redact-names", "", "`FILE` of names to replace, one per line (implies name redaction)")
	fs.StringVar(&f.baseURL, "base-url", "", "service `URL` (default: OPENAI_BASE_URL, else https://api.openai.com/v1/)")
	fs.StringVar(&f.organization, "organization", "", "organisation `ID` header (default: OPENAI_ORG_ID)")
	fs.DurationVar(&f.timeout, "timeout", openai.DefaultTimeout, "per-attempt timeout")
	fs.DurationVar(&f.interval, "interval", defaultInterval, "minimum gap between request starts")
	fs.IntVar(&f.maxAttempts, "max-attempts", 6, "attempts per request (retries on 429, 5xx, timeouts)")
	fs.IntVar(&f.rpm, "rpm", 0, "client-side limit on requests per minute (0 = none)")
	fs.IntVar(&f.tpm, "tpm", 0, "client-side limit on estimated tokens per minute (0 = none)")
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop at the first failed item")
	fs.IntVar(&f.maxFailures, "max-failures", job.DefaultMaxConsecutiveFailures, "stop after `N` failed requests in a row (a dead endpoint); -1 = never")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress lines on stderr")
}

func (f *remoteFlags) options() provider.Options {
	interval := f.interval
	if interval == 0 {
		interval = -1 // the registry reads 0 as "provider default"
	}
	return provider.Options{
		Model: f.model, BaseURL: f.baseURL, Organization: f.organization, Timeout: f.timeout, Interval: interval,
		MaxAttempts: f.maxAttempts, RequestsPerMin: f.rpm, TokensPerMin: f.tpm,
	}
}

func (f *remoteFlags) redactor() (*redact.Redactor, error) {
	var kinds, names []string
	if f.redactKinds != "" {
		kinds = strings.Split(f.redactKinds, ",")
	}
	if f.redactNames != "" {
		file, err := regularfile.Open(f.redactNames)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			names = append(names, sc.Text())
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f.redactNames, err)
		}
	}
	return redact.New(kinds, names)
}

func (f *remoteFlags) jobOptions(env *environment, c *cache.Cache, red *redact.Redactor) job.Options {
	o := job.Options{Cache: c, Redactor: red, FailFast: f.failFast, MaxConsecutiveFailures: f.maxFailures, Progress: env.stderr}
	if f.quiet {
		o.Progress = nil
	}
	return o
}

// endpointOf names where a provider sends text.
func endpointOf(p any) string {
	if e, ok := p.(provider.Endpointer); ok {
		return e.Endpoint()
	}
	return "a remote service"
}

// checkRemote refuses a remote run without --allow-remote, saying what would
// be sent where, and a run against OpenAI itself without a key.
func (f *remoteFlags) checkRemote(p interface{ Remote() bool }, what string, toSend int) error {
	if !p.Remote() || toSend == 0 {
		return nil
	}
	if !f.allowRemote {
		return fmt.Errorf("provider %s is remote: this run would send %s to %s.\n"+
			"Nothing was sent. Add --allow-remote to send it, --dry-run to see counts and cost, or --redact to mask identifiers first",
			f.provider, what, endpointOf(p))
	}
	if strings.HasPrefix(endpointOf(p), openai.DefaultBaseURL) && !openai.KeyPresent() {
		return errors.New("OPENAI_API_KEY is not set")
	}
	return nil
}

// prices are list prices in USD per million tokens (input, output), used
// only for --dry-run estimates; --price-in/--price-out override them.
var prices = map[string][2]float64{
	"gpt-4o-mini":            {0.15, 0.60},
	"text-embedding-3-small": {0.02, 0},
	"text-embedding-3-large": {0.13, 0},
}

type priceFlags struct{ in, out float64 }

func (p *priceFlags) bind(fs *flag.FlagSet) {
	fs.Float64Var(&p.in, "price-in", -1, "USD per million input tokens for --dry-run (default: list price of known models)")
	fs.Float64Var(&p.out, "price-out", -1, "USD per million output tokens for --dry-run (default: list price of known models)")
}

// cost returns the estimated cost and a description of the prices used.
func (p priceFlags) cost(model string, remote bool, in, out int) string {
	if !remote {
		return "none (local provider)"
	}
	list, known := prices[model]
	pin, pout := list[0], list[1]
	if p.in >= 0 {
		pin, known = p.in, true
	}
	if p.out >= 0 {
		pout = p.out
	}
	if !known {
		return fmt.Sprintf("unknown for model %s (pass --price-in/--price-out)", model)
	}
	usd := (float64(in)*pin + float64(out)*pout) / 1e6
	return fmt.Sprintf("≈ $%.4f (at $%g / $%g per million input / output tokens; estimates, not a quote)", usd, pin, pout)
}

func printPlan(w io.Writer, what string, p job.Plan, cost string, remote bool) {
	verb := "process locally"
	if remote {
		verb = "send"
	}
	fmt.Fprintf(w, "%s: %d total, %d already stored, %d in cache, %d to %s in %d distinct inputs\n",
		what, p.Total, p.Stored, p.Cached, p.ToSend, verb, p.Requests)
	fmt.Fprintf(w, "characters to %s: %d (%d inputs shortened)\n", verb, p.Chars, p.Truncated)
	if p.Redactions > 0 {
		fmt.Fprintf(w, "redactions in the inputs to send: %d\n", p.Redactions)
	}
	if p.Empty > 0 {
		fmt.Fprintf(w, "empty texts (will fail, not sent): %d\n", p.Empty)
	}
	switch {
	case p.Resend > 0:
		fmt.Fprintf(w, "incomplete summaries to resend with %d× the output budget: %d\n", retryBudgetFactor, p.Resend)
	case p.Incomplete > 0:
		fmt.Fprintf(w, "incomplete summaries left alone (--retry-incomplete resends them): %d\n", p.Incomplete)
	}
	fmt.Fprintf(w, "estimated tokens: input ≈ %d", p.InputTokens)
	if p.OutputTokens > 0 {
		fmt.Fprintf(w, ", output ≤ %d", p.OutputTokens)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "estimated cost: %s\n", cost)
}

// interruptible returns a context cancelled by SIGINT or SIGTERM, so a run
// stops after committing what it has.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// retryBudgetFactor multiplies --max-output-tokens for --retry-incomplete.
const retryBudgetFactor = 4

func runSummarize(env *environment, c *command, args []string) error {
	var dbPath, summariesFile string
	var rf remoteFlags
	var pf priceFlags
	fs := newFlagSet(env, c, &dbPath)
	rf.bind(fs, openai.DefaultInterval)
	pf.bind(fs)
	fs.StringVar(&summariesFile, "summaries", "", "JSONL `FILE` for --provider file")
	maxOut := fs.Int("max-output-tokens", openai.DefaultMaxOutputTokens, "max_output_tokens of each request")
	retryIncomplete := fs.Bool("retry-incomplete", false, fmt.Sprintf("resend chunks whose summary came back incomplete (output limit reached) with %d× --max-output-tokens", retryBudgetFactor))
	serviceStore := fs.Bool("service-store", false, "let the service retain responses (Responses API store left unset, as in the paper); default sends store=false")
	if err := parseFlagsOnly(fs, args); err != nil {
		return err
	}
	if rf.provider == "" {
		return fmt.Errorf("%w: --provider is required (%s)", errUsage, strings.Join(provider.SummarizerNames(), ", "))
	}
	red, err := rf.redactor()
	if err != nil {
		return err
	}
	opts := rf.options()
	opts.MaxOutputTokens = *maxOut
	opts.ServiceStore = *serviceStore
	opts.SummariesFile = summariesFile
	opts.Instructions = represent.SummarySystemPrompt
	sum, err := provider.NewSummarizer(rf.provider, opts)
	if err != nil {
		return err
	}
	var retry provider.Summarizer
	if *retryIncomplete {
		opts.MaxOutputTokens = retryBudgetFactor * *maxOut
		if retry, err = provider.NewSummarizer(rf.provider, opts); err != nil {
			return err
		}
	}
	st, cc, err := openStoreAndCache(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := interruptible()
	defer stop()
	j := job.Summaries{Store: st, Summarizer: sum, Retry: retry, Options: rf.jobOptions(env, cc, red)}
	plan, err := j.Plan(ctx)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("summaries with %s %s", sum.Name(), sum.Model())
	if rf.dryRun {
		fmt.Fprintf(env.stdout, "dry run: nothing sent. Destination: %s\n", destination(sum))
		fmt.Fprintf(env.stdout, "redaction: %s\n", red.Describe())
		printPlan(env.stdout, what, plan, pf.cost(sum.Model(), sum.Remote(), plan.InputTokens, plan.OutputTokens), sum.Remote())
		return nil
	}
	sent := fmt.Sprintf("the instructions and the first %d characters of raw_text of %d chunks (%d characters in all, redaction: %s) for model %s",
		represent.SummaryInputChars, plan.ToSend, plan.Chars, red.Describe(), sum.Model())
	if err := rf.checkRemote(sum, sent, plan.ToSend); err != nil {
		return err
	}
	rep, runErr := j.Run(ctx)
	rep.Write(env.stdout)
	return finish(rep, runErr)
}

func destination(p interface{ Remote() bool }) string {
	if !p.Remote() {
		return "this machine (local provider)"
	}
	return endpointOf(p)
}

// finish turns a run's outcome into the command's error.
func finish(rep job.Report, runErr error) error {
	if runErr != nil {
		return runErr
	}
	if n := len(rep.Failed); n > 0 {
		return fmt.Errorf("%d item(s) failed; rerun to retry them", n)
	}
	return nil
}
