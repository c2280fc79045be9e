// Package draft proposes candidate questions from a person's own history, the
// first step of the paper's gold construction (§4.2): a language model reads
// a window of messages, each line carrying its message ID, and answers with
// questions, a type, a short reference answer and the IDs of the messages
// that answer or support each question. Each candidate is written in the
// evidence shape of spec §11 (source, date, time, sender, text_prefix, role,
// plus the message_id), so `gold pool` resolves it like any evidence file.
//
// The prompt is ours, in Japanese, embedded from prompt_ja.txt; its version
// and sha256 are recorded with every candidate. Long histories are cut into
// windows of consecutive messages of one source, each at most
// Options.WindowChars characters of rendered lines, so every request fits the
// model's context with room for the instructions and the answer.
//
// Sending goes through lib/provider: any registered Summarizer whose
// instructions are Prompt() (the openai one calls the Responses API), with the
// provenance cache of lib/provider/cache, so a rerun sends only windows whose
// exact input was never answered. Redaction (lib/redact) applies to the text
// sent; candidates always quote the stored, unredacted message.
//
// Imports: lib/chat, lib/gold, lib/provider, lib/provider/cache, lib/redact,
// lib/questions and the standard library.
package draft

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/jsonl"
	"github.com/linemem/linemem/lib/provider"
	"github.com/linemem/linemem/lib/provider/cache"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/redact"
)

//go:embed prompt_ja.txt
var promptJA string

// PromptVersion names the prompt in prompt_ja.txt; it changes whenever the file does.
const PromptVersion = "draft-ja-v1"

// Defaults.
const (
	// DefaultWindowChars bounds the rendered lines of one window. Japanese
	// costs about one token per character (provider.EstimateTokens), so a
	// window stays near 12,000 tokens, a tenth of gpt-4o-mini's context.
	DefaultWindowChars = 12_000
	// DefaultPerWindow is how many questions each window asks for.
	DefaultPerWindow = 3
	// DefaultMaxOutputTokens bounds each answer.
	DefaultMaxOutputTokens = 1_500
	// PrefixRunes is the length of the text_prefix quoted from a message.
	PrefixRunes = 30
	// KindDraft is the cache kind of drafting answers.
	KindDraft = cache.KindDraft
)

// Prompt returns the instructions sent with every window.
func Prompt() string { return promptJA }

// PromptSHA256 is hex(sha256(Prompt())).
func PromptSHA256() string {
	sum := sha256.Sum256([]byte(promptJA))
	return hex.EncodeToString(sum[:])
}

// Options shape the windows.
type Options struct {
	WindowChars int              // 0 = DefaultWindowChars
	PerWindow   int              // 0 = DefaultPerWindow
	Redactor    *redact.Redactor // nil = send text as stored
}

// Window is one request: consecutive messages of one source.
type Window struct {
	Index      int
	Source     string
	Messages   []chat.Message
	Input      string // the exact user input sent
	Redactions int
}

// Line renders a message as the model sees it: "[ID] YYYY-MM-DD HH:MM sender:
// text", line breaks in the text shown as " / ". sender and text are passed
// separately so that they can be redacted while the ID and time are not.
func Line(m chat.Message, sender, text string) string {
	t := m.Time
	if len(t) >= 5 {
		t = t[:5]
	}
	return fmt.Sprintf("[%s] %s %s %s: %s", m.ID, m.Date, t, sender, strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", " / "))
}

// Windows cuts each source's messages (in source order) into windows. A
// message longer than the window on its own gets a window of its own. Empty
// texts (stickers, photos) are left out: there is nothing to quote.
func Windows(sources map[string][]chat.Message, order []string, opts Options) []Window {
	limit := opts.WindowChars
	if limit <= 0 {
		limit = DefaultWindowChars
	}
	per := opts.PerWindow
	if per <= 0 {
		per = DefaultPerWindow
	}
	var out []Window
	for _, src := range order {
		var cur []chat.Message
		var lines []string
		chars, red := 0, 0
		flush := func() {
			if len(cur) == 0 {
				return
			}
			head := fmt.Sprintf("トーク: %s\n作る質問の数: %d\n\n", src, per)
			out = append(out, Window{Index: len(out), Source: src, Messages: cur, Input: head + strings.Join(lines, "\n") + "\n", Redactions: red})
			cur, lines, chars, red = nil, nil, 0, 0
		}
		for _, m := range sources[src] {
			if strings.TrimSpace(m.Text) == "" {
				continue
			}
			sender, rs := opts.Redactor.Redact(m.Sender)
			text, rt := opts.Redactor.Redact(m.Text)
			n := rs.Total() + rt.Total()
			line := Line(m, sender, text)
			size := utf8.RuneCountInString(line) + 1
			if chars+size > limit && len(cur) > 0 {
				flush()
			}
			cur, lines, chars, red = append(cur, m), append(lines, line), chars+size, red+n
		}
		flush()
	}
	return out
}

// Item is an evidence item of a candidate: the spec §11 fields and the
// message it quotes.
type Item struct {
	gold.Item
	MessageID string `json:"message_id,omitempty"`
}

// Candidate is one proposed question (a line of candidates.jsonl; read as
// questions and as evidence alike).
type Candidate struct {
	QID      string `json:"qid"`
	Question string `json:"question"`
	Type     string `json:"type"`
	Answer   string `json:"answer,omitempty"`
	Evidence []Item `json:"evidence"`
	// Provenance.
	Provider      string      `json:"provider"`
	Model         string      `json:"model,omitempty"`
	ReturnedModel string      `json:"returned_model,omitempty"`
	PromptVersion string      `json:"prompt_version,omitempty"`
	PromptSHA256  string      `json:"prompt_sha256,omitempty"`
	Window        *WindowInfo `json:"window,omitempty"`
}

// WindowInfo says which messages a candidate was drafted from.
type WindowInfo struct {
	Index          int    `json:"index"`
	Source         string `json:"source"`
	FirstMessageID string `json:"first_message_id"`
	LastMessageID  string `json:"last_message_id"`
	InputSHA256    string `json:"input_sha256"`
	Redaction      string `json:"redaction"`
}

// answer is the JSON the prompt asks for.
type answer struct {
	Questions []struct {
		Question string `json:"question"`
		Type     string `json:"type"`
		Answer   string `json:"answer"`
		Evidence []struct {
			MessageID string `json:"message_id"`
			Role      string `json:"role"`
		} `json:"evidence"`
	} `json:"questions"`
}

// Parse reads a model's answer for window w. Evidence naming a message that
// is not in the window is left out, and a question left without evidence is
// dropped; each is reported in problems. An answer that is not the JSON the
// prompt asks for (a code fence around it is tolerated) is an error.
func Parse(text string, w Window) (cands []Candidate, problems []string, err error) {
	body := strings.TrimSpace(text)
	body = strings.TrimPrefix(body, "```json")
	body = strings.TrimPrefix(body, "```")
	body = strings.TrimSuffix(strings.TrimSpace(body), "```")
	var a answer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		return nil, nil, fmt.Errorf("window %d (%s): the answer is not the JSON the prompt asks for: %v", w.Index, w.Source, err)
	}
	byID := make(map[string]chat.Message, len(w.Messages))
	for _, m := range w.Messages {
		byID[m.ID] = m
	}
	for i, q := range a.Questions {
		q.Question = strings.TrimSpace(q.Question)
		if q.Question == "" {
			problems = append(problems, fmt.Sprintf("window %d question %d: empty question text", w.Index, i))
			continue
		}
		c := Candidate{QID: QID(q.Question), Question: q.Question, Type: q.Type, Answer: strings.TrimSpace(q.Answer)}
		if !isType(c.Type) {
			problems = append(problems, fmt.Sprintf("window %d question %d: type %q is not one of %s; recorded as %s", w.Index, i, c.Type, strings.Join(questions.Types, ", "), questions.Contextual))
			c.Type = questions.Contextual
		}
		for _, e := range q.Evidence {
			m, ok := byID[e.MessageID]
			if !ok {
				problems = append(problems, fmt.Sprintf("window %d question %d: evidence message %q is not in the window", w.Index, i, e.MessageID))
				continue
			}
			role := e.Role
			if role != gold.RoleSupport {
				role = gold.RoleAnswer
			}
			c.Evidence = append(c.Evidence, Item{Item: gold.Item{Source: m.Source, Date: m.Date, Time: m.Time, Sender: m.Sender,
				TextPrefix: prefix(m.Text), Role: role}, MessageID: m.ID})
		}
		if len(c.Evidence) == 0 {
			problems = append(problems, fmt.Sprintf("window %d question %d: no evidence message from the window; dropped", w.Index, i))
			continue
		}
		cands = append(cands, c)
	}
	return cands, problems, nil
}

func isType(t string) bool {
	for _, k := range questions.Types {
		if t == k {
			return true
		}
	}
	return false
}

// QID is "d" followed by the first 10 hex digits of sha256(question): the
// same question drafted twice gets the same ID, and reruns keep IDs.
func QID(question string) string {
	sum := sha256.Sum256([]byte(question))
	return "d" + hex.EncodeToString(sum[:])[:10]
}

func prefix(text string) string {
	r := []rune(strings.TrimSpace(text))
	if len(r) > PrefixRunes {
		r = r[:PrefixRunes]
	}
	return string(r)
}

// Plan is what a run would send, computed without sending.
type Plan struct {
	Windows      int
	Cached       int // answered before: taken from the cache
	ToSend       int
	Chars        int // code points of the inputs to send
	InputTokens  int // estimated, instructions included
	OutputTokens int // upper bound
	Redactions   int
}

// Job drafts candidates for windows with a summarizer whose instructions are
// Prompt().
type Job struct {
	Model     provider.Summarizer
	Cache     *cache.Cache
	Redaction string    // redact.Redactor.Describe of the rules applied, recorded
	MaxOutput int       // the output bound of Model, for Plan; 0 = DefaultMaxOutputTokens
	Progress  io.Writer // one line per window; nil = silent
}

// Plan counts what Run would send.
func (j Job) Plan(ctx context.Context, windows []Window) (Plan, error) {
	p := Plan{Windows: len(windows)}
	maxOut := j.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutputTokens
	}
	for _, w := range windows {
		_, found, err := j.Cache.Get(ctx, cache.NewKey(w.Input, j.Model))
		if err != nil {
			return p, err
		}
		if found {
			p.Cached++
			continue
		}
		p.ToSend++
		p.Chars += utf8.RuneCountInString(w.Input)
		p.InputTokens += provider.EstimateTokens(Prompt()) + provider.EstimateTokens(w.Input)
		p.OutputTokens += maxOut
		p.Redactions += w.Redactions
	}
	return p, nil
}

// Report accounts for a run.
type Report struct {
	Windows    int
	Sent       int
	Cached     int
	Failed     []string // windows whose request or answer failed, with the reason
	Problems   []string // evidence or questions left out of answers
	Duplicates int      // candidates whose question was already drafted
}

// Run drafts every window in order, taking cached answers and sending the
// rest, and returns the candidates (duplicate questions once). A failed
// window is reported and the run goes on; a cancelled context stops it with
// what is done.
func (j Job) Run(ctx context.Context, windows []Window) ([]Candidate, Report, error) {
	rep := Report{Windows: len(windows)}
	var out []Candidate
	seen := map[string]bool{}
	for i, w := range windows {
		if err := ctx.Err(); err != nil {
			return out, rep, err
		}
		key := cache.NewKey(w.Input, j.Model)
		text, returned := "", j.Model.Model()
		if o, found, err := j.Cache.Get(ctx, key); err != nil {
			return out, rep, err
		} else if found {
			text = o.Text
			rep.Cached++
		} else {
			res, err := j.Model.Summarize(ctx, provider.SummaryRequest{ID: fmt.Sprintf("window-%d", w.Index), Input: w.Input})
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return out, rep, err
				}
				rep.Failed = append(rep.Failed, fmt.Sprintf("window %d (%s): %v", w.Index, w.Source, err))
				continue
			}
			rep.Sent++
			text, returned = res.Text, res.Call.ReturnedModel
			n := utf8.RuneCountInString(w.Input)
			call := cache.Call{Provider: j.Model.Name(), Kind: KindDraft, Params: j.Model.Params(), BatchSize: 1, Call: res.Call}
			if err := j.Cache.Put(ctx, call, []cache.Output{{Key: key, Kind: KindDraft, Item: fmt.Sprintf("%s#%s", w.Source, w.Messages[0].ID),
				InputChars: n, Span: cache.Span{SourceChars: n, HeadEnd: n, TailStart: n}, Redaction: j.Redaction, Text: text}}); err != nil {
				return out, rep, err
			}
		}
		cands, problems, err := Parse(text, w)
		rep.Problems = append(rep.Problems, problems...)
		if err != nil {
			rep.Failed = append(rep.Failed, err.Error())
			continue
		}
		info := &WindowInfo{Index: w.Index, Source: w.Source, FirstMessageID: w.Messages[0].ID, LastMessageID: w.Messages[len(w.Messages)-1].ID,
			InputSHA256: cache.SHA256(w.Input), Redaction: j.Redaction}
		for _, c := range cands {
			if seen[c.QID] {
				rep.Duplicates++
				continue
			}
			seen[c.QID] = true
			c.Provider, c.Model, c.ReturnedModel = j.Model.Name(), j.Model.Model(), returned
			c.PromptVersion, c.PromptSHA256, c.Window = PromptVersion, PromptSHA256(), info
			out = append(out, c)
		}
		if j.Progress != nil {
			fmt.Fprintf(j.Progress, "window %d/%d (%s): %d candidates\n", i+1, len(windows), w.Source, len(cands))
		}
	}
	return out, rep, nil
}

// FromEvidence turns an evidence file that a person or another tool wrote
// into candidates (provider "file"), keeping its questions and items.
func FromEvidence(ev []gold.Evidence) []Candidate {
	out := make([]Candidate, len(ev))
	for i, e := range ev {
		c := Candidate{QID: e.QID, Question: e.Question, Type: e.Type, Answer: e.Answer, Provider: "file", Evidence: []Item{}}
		for _, it := range e.Items {
			c.Evidence = append(c.Evidence, Item{Item: it})
		}
		out[i] = c
	}
	return out
}

// Write writes candidates as JSON lines, non-ASCII unescaped.
func Write(w io.Writer, cands []Candidate) error {
	jw := jsonl.NewWriter(w)
	for _, c := range cands {
		if c.Evidence == nil {
			c.Evidence = []Item{}
		}
		if err := jw.Write(c); err != nil {
			return err
		}
	}
	return jw.Flush()
}
