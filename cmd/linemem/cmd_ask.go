package main

import (
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/provider/openai"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

func init() {
	register(&command{
		name:    "ask",
		summary: "answer a question from your chat memory, citing the conversations it rests on",
		usage: `[--retriever NAME] [--k N] [--me NAME] [--provider extractive|openai] [--allow-remote] [--dry-run] [--json] QUESTION

Retrieves the top k conversation windows (the same search as
` + "`search`" + `), numbers them and answers from them alone, citing [1], [2], ….
When the search's confidence is below ` + fmt.Sprint(memory.DefaultMinConfidence) + ` (see ` + "`search --help`" + `) the answer
still quotes the closest line and says that the history may not hold the
answer, naming the question's words it never contains. Then each cited
window is shown with its date range, source and the messages the answer
rests on.

Providers: extractive (the default without --allow-remote; offline), a
baseline that quotes one line and writes nothing: in the top window, the
message that, with its neighbours, holds most of the question's words
(everyday analyzer, each word weighted by rarity; question words such as
いつ or "when" are not matched); then, as the line to quote, that message
when it carries what the question asks for (a date or time for いつ/when,
a clock time for 何時/what time, a sum of money for いくら/how much, a
count or a length of time for 何人/何時間/how many, a place for
どこ/where, a person for 誰/who), else the nearest line within 3 messages that does, else, when the
message is itself a question, the reply after it, else the message (all in
the window: never the chat's next message that search shows after it). The
quote names who wrote it and when, in the question's language (English or
Japanese), and cites the matched message beside it (--extractive names
other methods, for comparison). No word of the question in the window:
"` + answer.AbstainPhrase + `" ("` + answer.AbstainPhraseEnglish + `" for an English question).
For a who-question (誰, who) the matched line itself answers when it is not
a question: its sender is the one asked about. --me NAME says which sender
is you (a sender of the chats, the closest offered otherwise; stored in the
database for later asks, and ask says so; "you" in quotes, and told to the
remote model); without it, the stored name. With neither, nobody is
"you": ask names the sender who wrote in every chat (with a single
two-person chat, the one its title does not name) as its guess and says
how to confirm it with --me. openai
(default with --allow-remote): the Responses API, or any OpenAI-compatible
server at OPENAI_BASE_URL / --base-url, with linemem's Japanese prompt
(its version is recorded with each answer); a server on a loopback address
(Ollama, vLLM) is this machine and needs no --allow-remote. Only the question
and the k windows are sent, never the rest of the history; the command says
so before sending, --dry-run prints the exact prompt and sends nothing,
--redact masks identifiers first, and answers are cached with provenance in
the database, so asking again sends nothing.`,
		run: runAsk,
	})
}

// askFlags are the flags ask and eval-answers share.
type askFlags struct {
	remote     remoteFlags
	retriever  string
	tokenizer  string
	embedModel string
	k          int
	inputCap   int
	maxOut     int
	asJSON     bool
	extractive string
	me         string
}

func (f *askFlags) bind(fs *flag.FlagSet) {
	f.remote.bind(fs, 0)
	fs.Lookup("provider").Usage = "provider `NAME`: extractive or openai (default: extractive, openai with --allow-remote or --dry-run)"
	fs.StringVar(&f.retriever, "retriever", "", "retriever `NAME` (as in `search --help`, e.g. raw_text_bm25, rrf:raw_text_bm25+raw_text_vector; default: the everyday one, as search's)")
	fs.StringVar(&f.tokenizer, "tokenizer", "", "BM25 `TOKENIZER` of the retriever (default "+memory.DefaultTokenizer+", as search's)")
	fs.StringVar(&f.embedModel, "embed-model", "", "embedding `MODEL` of a dense or hybrid retriever (default: the only one stored)")
	fs.IntVar(&f.k, "k", answer.DefaultK, "number of conversation windows the answer is built from")
	fs.IntVar(&f.inputCap, "input-cap", answer.DefaultInputCap, "most characters of prompt input sent per question")
	fs.IntVar(&f.maxOut, "max-output-tokens", answer.DefaultMaxOutputTokens, "max_output_tokens of each request")
	fs.BoolVar(&f.asJSON, "json", false, "print JSON")
	fs.StringVar(&f.extractive, "extractive", answer.MethodCoverage, "`METHOD` of the extractive provider: "+strings.Join(answer.Methods, ", "))
	fs.StringVar(&f.me, "me", "", "your sender `NAME` in the chats (enough of it to name one sender; the full name is stored in the database for later asks; default: the stored one)")
}

// whoAmI returns the sender name of the history's owner: the one sender of
// the chats that --me names (memory.ResolveSender: "kenj" is Kenji), stored
// for later asks (saying so on stderr) when it differs from the stored one,
// else the
// stored one; else "" and the guess of memory.GuessMe (not stored, "" when
// there is none). A guess is only ever named, never taken as "you": a
// wrong guess would put the person's own words in someone else's mouth.
func (f *askFlags) whoAmI(env *environment, st *store.Store, mem *memory.Memory) (me, guess string, err error) {
	stored, err := st.Setting(store.SettingMe)
	switch {
	case err != nil:
		return "", "", err
	case f.me != "" && f.me != stored:
		me, err := mem.ResolveSender(f.me)
		if err != nil {
			return "", "", fmt.Errorf("%w: --me: %v", errUsage, err)
		}
		if me != stored {
			if err := st.SetSetting(store.SettingMe, me); err != nil {
				return "", "", err
			}
			fmt.Fprintf(env.stderr, "(you are %s: stored in %s, so later asks quote your lines as \"you\" without --me)\n", me, st.Path())
		}
		return me, "", nil
	case stored != "":
		return stored, "", nil
	}
	guess, err = mem.GuessMe()
	return "", guess, err
}

// providerName resolves --provider: extractive unless sending is allowed or
// planned.
func (f *askFlags) providerName() (string, error) {
	p := f.remote.provider
	if p == "" {
		p = answer.ExtractiveName
		if f.remote.allowRemote || f.remote.dryRun {
			p = openai.Name
		}
	}
	if p != answer.ExtractiveName && p != openai.Name {
		return "", fmt.Errorf("%w: unknown provider %q for answers; known: %s, %s", errUsage, p, answer.ExtractiveName, openai.Name)
	}
	return p, nil
}

// openMemory opens the everyday search over st with the flags' retriever. A
// dense retriever embeds the question with stored or local vectors only;
// --allow-remote concerns the answer, not the question's embedding.
func (f *askFlags) openMemory(st *store.Store) (*memory.Memory, error) {
	return memory.Open(st, memory.Options{Retriever: f.retriever, Tokenizer: f.tokenizer, EmbedModel: f.embedModel})
}

// answerer builds the answerer the flags name; a Remote for openai. guess
// is memory.GuessMe's owner when neither --me nor a stored name says who
// the person is ("" otherwise).
func (f *askFlags) answerer(env *environment, st *store.Store, mem *memory.Memory, name string) (ans answer.Answerer, remote *answer.Remote, guess string, err error) {
	me, guess, err := f.whoAmI(env, st, mem)
	if err != nil {
		return nil, nil, "", err
	}
	// the everyday search's own analyzer, so the picked message is one the
	// search marks; the dictionary tokenizer only where it is used
	tokName := memory.EverydayTokenizer(f.tokenizer)
	if name != answer.ExtractiveName || f.extractive == answer.MethodBM25Next {
		tokName = answer.DefaultExtractiveTokenizer
	}
	tok, err := tokenize.New(tokName)
	if err != nil {
		return nil, nil, "", err
	}
	if name == answer.ExtractiveName {
		ex, err := answer.NewExtractiveMethod(tok, f.extractive)
		if err != nil {
			return nil, nil, "", fmt.Errorf("%w: --extractive: %v", errUsage, err)
		}
		return ex.WithMe(me).WithIDF(mem.TermIDF()), nil, guess, nil
	}
	red, err := f.remote.redactor()
	if err != nil {
		return nil, nil, "", err
	}
	opts := f.remote.options()
	opts.Instructions = answer.Instructions
	opts.MaxOutputTokens = f.maxOut
	gen, err := provider.NewSummarizer(name, opts)
	if err != nil {
		return nil, nil, "", err
	}
	cc, err := cache.Open(st.DB())
	if err != nil {
		return nil, nil, "", err
	}
	r := &answer.Remote{Gen: gen, Cache: cc, Redactor: red, InputCap: f.inputCap, AllowRemote: f.remote.allowRemote, Tokenizer: tok, Me: me}
	if f.remote.allowRemote && strings.HasPrefix(r.Destination(), openai.DefaultBaseURL) && !openai.KeyPresent() && !f.remote.dryRun {
		return nil, nil, "", fmt.Errorf("OPENAI_API_KEY is not set")
	}
	r.BeforeSend = func(p answer.Prompt, dest string) {
		if !f.remote.quiet {
			fmt.Fprintf(env.stderr, "sending the question and %d retrieved conversation windows (%d characters, redaction: %s) to %s for %s; nothing else from the history is sent\n",
				len(p.Chunks), utf8.RuneCountInString(p.Input), red.Describe(), dest, gen.Model())
		}
	}
	return r, r, guess, nil
}

// remoteRefusal turns a refusal into the message summarize and embed give.
func remoteRefusal(err error) error {
	return fmt.Errorf("%v.\nNothing was sent. Add --allow-remote to send it, --dry-run to see the prompt, or --redact to mask identifiers first", err)
}

func runAsk(env *environment, c *command, args []string) error {
	var db string
	var f askFlags
	fs := newFlagSet(env, c, &db)
	f.bind(fs)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return fmt.Errorf("%w: a QUESTION is required", errUsage)
	}
	question := strings.Join(rest, " ")
	name, err := f.providerName()
	if err != nil {
		return err
	}
	q := memory.Query{Text: question, K: f.k}
	if err := q.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	in, err := f.openAnswering(env, db, name)
	if err != nil {
		return err
	}
	defer in.Close()
	mem, ans, remote := in.memory, in.answer, in.remote
	ctx, stop := interruptible()
	defer stop()
	resp, err := mem.Search(ctx, q)
	if err != nil {
		return err
	}
	if f.remote.dryRun && remote != nil {
		return printAskDryRun(env, remote, question, resp.Results)
	}
	a, err := ans.Answer(ctx, question, resp.Results)
	if err != nil {
		if errors.Is(err, answer.ErrRemoteNotAllowed) {
			return remoteRefusal(err)
		}
		return err
	}
	a.Retriever = resp.Retriever
	if f.asJSON {
		return writeJSON(env, askJSON{Answer: a, Confidence: confidenceDoc(resp.Confidence), Notices: noticesDoc(resp.Notices)})
	}
	printNotices(env.stderr, resp.Notices, memory.KindWarning, memory.KindNote)
	for _, n := range resp.Notices {
		switch {
		case n.Kind != memory.KindLowConfidence:
		case a.Abstained:
			fmt.Fprintf(env.stdout, "(%s)\n", n.Message)
		default:
			fmt.Fprintf(env.stdout, "(%s; the closest line is quoted)\n", n.Message)
		}
	}
	printAnswer(env, a, resp.Results)
	if in.guessedMe != "" {
		fmt.Fprintf(env.stderr, "(%s)\n", guessNote(in.guessedMe))
	}
	if name == answer.ExtractiveName {
		fmt.Fprintln(env.stdout, "\n(an extractive baseline: it quotes the line that best answers the question and writes no answer; --allow-remote for one that does)")
	}
	if c := resp.Confidence; c != nil {
		fmt.Fprintf(env.stderr, "(confidence %.2f)\n", memory.Shown(c.Value))
	}
	return nil
}

// guessNote says that quotes name every sender, and that the guessed owner
// becomes "you" once confirmed with --me.
func guessNote(guess string) string {
	return fmt.Sprintf("quotes name every sender; %s wrote in every chat and may be you: `--me %s` makes your lines \"you\"", guess, guess)
}

// askJSON is `ask --json`: the answer with the search's confidence and notices.
type askJSON struct {
	answer.Answer
	Confidence *confidenceJSON `json:"confidence,omitempty"`
	Notices    []noticeJSON    `json:"notices"` // the search's notices (memory.Response.Notices)
}

func printAskDryRun(env *environment, r *answer.Remote, question string, chunks []memory.Result) error {
	p, err := r.Prompt(question, chunks)
	if err != nil {
		return err
	}
	w := env.stdout
	fmt.Fprintf(w, "dry run: nothing sent. Destination: %s, model %s, prompt %s\n", r.Destination(), r.Model(), p.Version)
	fmt.Fprintf(w, "would send: the question and %d retrieved conversation windows, %d characters (of %d before the input cap; windows cut: %s), redaction replacements: %d\n",
		len(p.Chunks), utf8.RuneCountInString(p.Input), p.SourceChars, cutList(p.Truncated()), p.Redacted.Total())
	fmt.Fprintf(w, "estimated tokens: input ≈ %d\n\n", provider.EstimateTokens(p.Instructions)+provider.EstimateTokens(p.Input))
	fmt.Fprintf(w, "--- instructions ---\n%s\n--- input ---\n%s", p.Instructions, p.Input)
	return nil
}

// printAnswer prints the answer, then each cited window: number, date range,
// source, chunk ID and the cited messages.
func printAnswer(env *environment, a answer.Answer, chunks []memory.Result) {
	w := env.stdout
	fmt.Fprintln(w, a.Text)
	byID := map[string]memory.Message{}
	for _, c := range chunks {
		for _, m := range c.Messages {
			byID[m.ID] = m
		}
	}
	for _, cit := range a.Citations {
		c := chunks[cit.N-1]
		fmt.Fprintf(w, "\n[%d] %s〜%s  %s  (%s)\n", cit.N, c.StartAt.Format("2006-01-02 15:04"), c.EndAt.Format("2006-01-02 15:04"), c.Source, c.ChunkID)
		for _, id := range cit.MessageIDs {
			m := byID[id]
			fmt.Fprintf(w, "    %s %s: %s\n", m.At.Format("2006-01-02 15:04"), m.Sender, oneLine(strings.ReplaceAll(m.Text, "\t", " ")))
		}
	}
	if len(a.Invalid) > 0 {
		fmt.Fprintf(w, "\ncitations that name no supplied window: %v\n", a.Invalid)
	}
	if len(a.Duplicates) > 0 {
		fmt.Fprintf(w, "cited more than once: %v\n", a.Duplicates)
	}
	if len(chunks) == 0 {
		fmt.Fprintln(w, "\n(no conversation window matched the question)")
	}
	cached := ""
	if a.Cached {
		cached = ", from cache"
	}
	fmt.Fprintf(env.stderr, "(%s · %s · %s · top %d%s)\n", a.Provider, a.Model, a.Retriever, len(chunks), cached)
}

func cutList(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	return fmt.Sprint(ns)
}
