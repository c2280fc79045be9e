package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

func init() {
	register(&command{
		name:    "search",
		summary: "search your chat memory: the conversations that answer a question, matching messages marked",
		usage: `[--retriever NAME] [--k N] [--context N] [--source NAME] [--since DATE] [--until DATE] [--sender NAME] QUESTION

Without --retriever and --tokenizer, search uses the everyday defaults
(` + memory.DefaultsDoc + `).
The paper's protocol (eval, sweep, reproduce) keeps the paper's defaults.

` + memory.TokenizerTableDoc + `

Question words (いつ, どこ, 誰, いくら, 何, なんだっけ-type endings; when, where,
who, what, how much) are not matched: they say what the question asks for.
Windows are ranked by BM25: re-ranking by the best passage (a message with
the one before it and the reply after it) did not help with this analyzer
(λ = ` + fmt.Sprint(memory.DefaultPassageWeight) + `; docs/everyday-search.md). For a question that asks for an
amount or a time of day (いくら, 何時, なんじ, how much, what time), a window
of the first ` + fmt.Sprint(memory.TypeDepth) + ` that holds one beyond what the question states (2万円,
19時) gains μ = ` + fmt.Sprint(memory.DefaultTypeWeight) + ` times the best BM25 score, the answer-type prior,
chosen by measurement (--explain shows it).
Below confidence ` + fmt.Sprint(memory.DefaultMinConfidence) + ` (the IDF-weighted share of the question's terms in
the first result) search says the history may not hold the answer and
names the question's words the history never contains; a search without
results has confidence 0.

` + memory.AbstainTableDoc + `

Each result shows the messages that contain a question term, the terms
marked (bold on a terminal, **like this** otherwise), the replies to them,
and the lines near them that carry what the question asks for (a date or
time for いつ/when, a clock time for 何時/what time, a sum of money for
いくら/how much, a count or a length of time for 何人/何時間/how many, a
place for どこ/where, a person for 誰/who); --context N messages of the window around each match;
a single line between two shown ones is shown rather than "…"; and, under
"— after this conversation, 4 hours later —", the chat's one next message
after the window, since a question asked one evening is often answered the
next day (it may as well be a new topic: it is never marked and ask never
quotes it). With --sender, only that
sender's messages are marked. A dense or hybrid retriever embeds a new question with
the stored local model; for vectors of an OpenAI-format model it asks the
server at --base-url, at once when it is on a loopback address (local),
otherwise only with --allow-remote, and keeps the question's vector in the
database.`,
		run: runSearch,
	})
}

// searchMessageJSON is one shown message of a `search --json` result.
type searchMessageJSON struct {
	ID      string   `json:"message_id"`
	At      string   `json:"at"`
	Sender  string   `json:"sender"`
	Text    string   `json:"text"`
	Matches [][2]int `json:"matches"`                // byte ranges [start, end) of Text that match a question term
	Role    string   `json:"role"`                   // why it is shown: match, reply, asked (carries what the question asks for), next (the chat's first message after the window) or context
	Later   bool     `json:"after_window,omitempty"` // the chat's first message after the window (role next)
}

// searchHitJSON is one result of `search --json`.
type searchHitJSON struct {
	Rank     int                 `json:"rank"`
	ChunkID  string              `json:"chunk_id"`
	Score    float64             `json:"score"`
	Source   string              `json:"source"`
	Title    string              `json:"title,omitempty"` // the chat's title from its .txt header
	StartAt  string              `json:"start_at"`
	EndAt    string              `json:"end_at"`
	RawText  string              `json:"raw_text"`
	Messages []searchMessageJSON `json:"messages"`      // matched messages with --context lines, or the first few
	Why      string              `json:"why,omitempty"` // when no message is marked: why the window was ranked
	// Explain is, with --explain, the score's breakdown: a tree
	// {value, message, children} whose root's value is Score.
	Explain *ranking.Explanation `json:"explain,omitempty"`
}

// noticeJSON is a memory.Notice in JSON.
type noticeJSON struct {
	Kind    memory.NoticeKind `json:"kind"` // not-found, low-confidence, warning or note
	Code    string            `json:"code"` // stable, machine-readable (memory.Code…)
	Message string            `json:"message"`
	Missing []string          `json:"missing,omitempty"` // the question's words the history never contains
}

// noticesDoc is ns in JSON, [] when there is none.
func noticesDoc(ns []memory.Notice) []noticeJSON {
	out := make([]noticeJSON, len(ns))
	for i, n := range ns {
		out[i] = noticeJSON{Kind: n.Kind, Code: n.Code, Message: n.Message, Missing: n.Missing}
	}
	return out
}

// printNotices writes the notices of ns whose kind is one of kinds to w,
// one a line in their order: a warning or a note as "warning: …" or
// "note: …", not found and low confidence as the message alone.
func printNotices(w io.Writer, ns []memory.Notice, kinds ...memory.NoticeKind) {
	for _, n := range ns {
		switch {
		case !slices.Contains(kinds, n.Kind):
		case n.Kind == memory.KindWarning || n.Kind == memory.KindNote:
			fmt.Fprintf(w, "%s: %s\n", n.Kind, n.Message)
		default:
			fmt.Fprintf(w, "%s\n", n.Message)
		}
	}
}

// confidenceJSON is memory.Confidence in JSON.
type confidenceJSON struct {
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Low       bool    `json:"low"` // the history may not hold the answer
	// Missing are the question's words the history never contains.
	Missing []string `json:"missing,omitempty"`
}

func confidenceDoc(c *memory.Confidence) *confidenceJSON {
	if c == nil {
		return nil
	}
	return &confidenceJSON{Value: c.Value, Threshold: c.Threshold, Low: c.Low, Missing: c.Missing}
}

type searchJSON struct {
	Retriever  string          `json:"retriever"`
	Tokenizer  string          `json:"tokenizer"`
	EmbedModel string          `json:"embed_model,omitempty"`
	Query      string          `json:"query"`
	Filters    searchFilters   `json:"filters"`
	Confidence *confidenceJSON `json:"confidence,omitempty"`
	Warnings   []string        `json:"warnings,omitempty"`
	Notes      []string        `json:"notes,omitempty"`
	// Notices are what the search says beside its results, in order
	// (memory.Response.Notices); Warnings and Notes are kept for scripts
	// that read them.
	Notices []noticeJSON    `json:"notices"`
	Results []searchHitJSON `json:"results"`
}

type searchFilters struct {
	Sources []string `json:"sources,omitempty"`
	Since   string   `json:"since,omitempty"`
	Until   string   `json:"until,omitempty"`
	Sender  string   `json:"sender,omitempty"`
	Context int      `json:"context"`
}

func runSearch(env *environment, c *command, args []string) error {
	var db, since, until, baseURL string
	var q memory.Query
	var opts memory.Options
	var asJSON, explain bool
	var contextLines int
	fs := newFlagSet(env, c, &db)
	fs.StringVar(&opts.Retriever, "retriever", "", "retriever `NAME` (spec §9 grammar, e.g. raw_text_bm25, rrf:raw_text_bm25+raw_text_vector, hybrid:embedding_text_bm25+embedding_text_vector@0.45); default: the everyday one for what the database holds")
	fs.IntVar(&q.K, "k", memory.DefaultK, fmt.Sprintf("number of results, 1…%d", memory.MaxK))
	fs.IntVar(&contextLines, "context", memory.DefaultContext, "show `N` messages before and after each matching message")
	fs.StringSliceVar(&q.Sources, "source", nil, "only chats that `NAME` names: the start of a source name or a whole word of it, any letter case (repeat or comma-separate for several)")
	fs.StringVar(&since, "since", "", "only conversations ending on or after `DATE` (YYYY-MM-DD or YYYY/MM/DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339 with an offset)")
	fs.StringVar(&until, "until", "", "only conversations starting on or before `DATE` (a whole day when only the date is given)")
	fs.StringVar(&q.Sender, "sender", "", "only conversations in which someone `NAME` names wrote: the start of the sender's name or a whole word of it, any letter case")
	fs.StringVar(&opts.EmbedModel, "embed-model", "", "embedding `MODEL` (default: the only one stored)")
	fs.StringVar(&opts.Tokenizer, "tokenizer", "", "BM25 `TOKENIZER` (default "+memory.DefaultTokenizer+")")
	fs.BoolVar(&opts.AllowRemote, "allow-remote", false, "allow sending the question to the remote (not loopback) server of the stored vectors' model")
	fs.StringVar(&baseURL, "base-url", "", "remote embedding service `URL` (default: OPENAI_BASE_URL, else https://api.openai.com/v1/)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.BoolVar(&explain, "explain", false, "break each BM25 or hybrid score into its parts")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return fmt.Errorf("%w: a QUESTION is required", errUsage)
	}
	q.Text = strings.Join(rest, " ")
	if q.K < 1 || q.K > memory.MaxK {
		return fmt.Errorf("%w: --k must be between 1 and %d, got %d", errUsage, memory.MaxK, q.K)
	}
	if contextLines < 0 {
		return fmt.Errorf("%w: --context must be ≥ 0, got %d", errUsage, contextLines)
	}
	if q.Since, err = memory.ParseTime(since, false); err != nil {
		return fmt.Errorf("%w: --since: %v", errUsage, err)
	}
	if q.Until, err = memory.ParseTime(until, true); err != nil {
		return fmt.Errorf("%w: --until: %v", errUsage, err)
	}
	if err := q.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	opts.Remote.BaseURL = baseURL
	opened := time.Now()
	st, err := openExistingStore(db)
	if err != nil {
		return err
	}
	defer st.Close()
	mem, err := memory.Open(st, opts)
	if err != nil {
		return err
	}
	typed := q.Sources
	if err := mem.ParseFilters(&q, memory.Filters{Since: since, Until: until, Sources: typed, Sender: q.Sender}, nil); err != nil {
		return err
	}
	start := time.Now()
	loading := start.Sub(opened)
	ctx, stop := interruptible()
	defer stop()
	resp, err := mem.Search(ctx, q)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	doc := searchJSON{Retriever: resp.Retriever, Tokenizer: resp.Tokenizer, EmbedModel: resp.EmbedModel, Query: q.Text, Confidence: confidenceDoc(resp.Confidence), Warnings: resp.Warnings, Notes: resp.Notes, Notices: noticesDoc(resp.Notices), Results: []searchHitJSON{},
		Filters: searchFilters{Sources: typed, Since: since, Until: until, Sender: q.Sender, Context: contextLines}}
	for _, r := range resp.Results {
		item := searchHitJSON{Rank: r.Rank, ChunkID: r.ChunkID, Score: r.Score, Source: r.Source, Title: r.Title, StartAt: r.StartAt.Format(chat.TimestampLayout), EndAt: r.EndAt.Format(chat.TimestampLayout), Messages: []searchMessageJSON{}, Why: r.Why}
		item.RawText = r.RawText
		for _, i := range r.Shown(contextLines) {
			msg := r.Messages[i]
			mj := searchMessageJSON{ID: msg.ID, At: msg.At.Format(chat.TimestampLayout), Sender: msg.Sender, Text: msg.Text, Matches: [][2]int{}, Role: r.Role(i), Later: msg.Later}
			for _, s := range msg.Matches {
				mj.Matches = append(mj.Matches, [2]int{s.Start, s.End})
			}
			item.Messages = append(item.Messages, mj)
		}
		if explain {
			e, ok, err := mem.Explain(q.Text, r)
			if err != nil {
				return err
			}
			if ok {
				item.Explain = &e
			}
		}
		doc.Results = append(doc.Results, item)
	}
	printNotices(env.stderr, resp.Notices, memory.KindWarning, memory.KindNote)
	if asJSON {
		return writeJSON(env, doc)
	}
	if len(doc.Results) == 0 {
		fmt.Fprintf(env.stdout, "no results for %q with %s (tokenizer %s)\n", q.Text, resp.Retriever, resp.Tokenizer)
		printNotices(env.stdout, resp.Notices, memory.KindNotFound, memory.KindLowConfidence)
		return nil
	}
	open, close := "**", "**"
	if f, ok := env.stdout.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		open, close = "\x1b[1m", "\x1b[0m"
	}
	loaded := "index"
	if spec, err := retrieval.ParseName(resp.Retriever); err == nil && spec.NeedsVectors() {
		loaded = "index and vectors"
	}
	fmt.Fprintf(env.stdout, "%s, tokenizer %s — %s in %s (%s loaded in %s)\n", resp.Retriever, resp.Tokenizer, plural(len(doc.Results), "result"), elapsed.Round(time.Microsecond), loaded, loading.Round(time.Millisecond))
	printNotices(env.stdout, resp.Notices, memory.KindNotFound, memory.KindLowConfidence)
	if c := resp.Confidence; c != nil {
		if !c.Low {
			fmt.Fprintf(env.stdout, "confidence %.2f (the best conversation holds %.0f%% of the question)\n", memory.Shown(c.Value), 100*memory.Shown(c.Value))
		}
	}
	for i, item := range doc.Results {
		r := resp.Results[i]
		fmt.Fprintf(env.stdout, "\n#%d  %.4f  %s … %s  %s  (%s)\n", item.Rank, item.Score, item.StartAt, item.EndAt, mem.Label(item.Source), item.ChunkID)
		if r.Why != "" {
			fmt.Fprintf(env.stdout, "    (%s)\n", r.Why)
		}
		prev := -1
		for _, j := range r.Shown(contextLines) {
			if prev >= 0 && j > prev+1 {
				fmt.Fprintln(env.stdout, "    …")
			}
			msg := r.Messages[j]
			if msg.Later {
				fmt.Fprintf(env.stdout, "    — after this conversation, %s later —\n", memory.Elapsed(msg.At.Sub(r.EndAt), false))
			}
			prev = j
			fmt.Fprintf(env.stdout, "    %s  %s: %s\n", msg.At.Format("2006-01-02 15:04"), msg.Sender, oneLine(memory.Highlight(msg.Text, msg.Matches, open, close)))
		}
		if item.Explain != nil {
			for _, line := range strings.Split(strings.TrimRight(item.Explain.String(), "\n"), "\n") {
				fmt.Fprintf(env.stdout, "    | %s\n", line)
			}
		}
	}
	return nil
}

// oneLine puts a multi-line message on one line, its line breaks shown as ⏎.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ⏎ ") }
