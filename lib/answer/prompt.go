package answer

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/redact"
)

//go:embed prompt_ja.txt
var promptFile string

// inputMarker separates the instructions from the input template in
// prompt_ja.txt.
const inputMarker = "=== input ===\n"

// DefaultInputCap is the longest input sent, in code points: about five
// 42-message windows of everyday chat with their headers (the spec §4
// windows render to at most 5,000 characters; most are far shorter).
const DefaultInputCap = 12000

// promptName is the family of prompt_ja.txt; PromptVersion adds its hash.
const promptName = "ja-1"

var (
	// Instructions is the system prompt of prompt_ja.txt, sent as the
	// Responses API's instructions.
	Instructions string
	// PromptVersion is "ja-1+" and the first 12 hex digits of the SHA-256 of
	// prompt_ja.txt, so any edit of the prompt changes the recorded version.
	PromptVersion string
	inputTemplate *template.Template
)

func init() {
	instr, tmpl, ok := strings.Cut(promptFile, inputMarker)
	if !ok {
		panic("answer: prompt_ja.txt has no " + strings.TrimSpace(inputMarker) + " line")
	}
	Instructions = strings.TrimSpace(instr)
	inputTemplate = template.Must(template.New("input").Parse(tmpl))
	sum := sha256.Sum256([]byte(promptFile))
	PromptVersion = promptName + "+" + hex.EncodeToString(sum[:])[:12]
}

// Prompt is what a generator receives for one question.
type Prompt struct {
	Version      string
	Instructions string
	Input        string
	Chunks       []PromptChunk
	Redacted     redact.Report // replacements made, by kind
	SourceChars  int           // code points of the input had nothing been cut
}

// PromptChunk is one numbered chunk as it went into the prompt.
type PromptChunk struct {
	N          int
	ChunkID    string
	MessageIDs []string // messages that went in, whole or cut, in order
	Truncated  bool     // some of the chunk's messages were cut or left out
}

// Truncated lists the numbers of the chunks that were cut.
func (p Prompt) Truncated() []int {
	var out []int
	for _, c := range p.Chunks {
		if c.Truncated {
			out = append(out, c.N)
		}
	}
	return out
}

// block is one chunk rendered: its header and one line per message.
type block struct {
	header string
	lines  []string
	ids    []string
}

func (b block) runes() int {
	n := utf8.RuneCountInString(b.header)
	for _, l := range b.lines {
		n += 1 + utf8.RuneCountInString(l)
	}
	return n
}

func (b block) String() string {
	return strings.Join(append([]string{b.header}, b.lines...), "\n")
}

const timeLayout = "2006-01-02 15:04"

// render renders chunk number n, redacting header and message lines.
func render(n int, c memory.Result, red *redact.Redactor, rep redact.Report) block {
	redactLine := func(s string) string {
		out, r := red.Redact(s)
		for k, v := range r {
			rep[k] += v
		}
		return out
	}
	b := block{header: redactLine(fmt.Sprintf("[%d] %s %s〜%s", n, c.Source, c.StartAt.Format(timeLayout), c.EndAt.Format(timeLayout)))}
	for _, m := range c.Window() {
		sender := m.Sender
		if sender == "" {
			sender = "(system)"
		}
		text := strings.ReplaceAll(m.Text, "\n", " ")
		b.lines = append(b.lines, redactLine(fmt.Sprintf("%s %s: %s", m.At.Format(timeLayout), sender, text)))
		b.ids = append(b.ids, m.ID)
	}
	return b
}

// BuildPrompt numbers chunks from 1 in the given order and lays them out
// with question under the input cap (code points; ≤ 0 means
// DefaultInputCap), redacting every line with red (nil redacts nothing). It
// is an error when the cap cannot hold the fixed text and every chunk's
// header.
func BuildPrompt(question string, chunks []memory.Result, inputCap int, red *redact.Redactor) (Prompt, error) {
	if inputCap <= 0 {
		inputCap = DefaultInputCap
	}
	p := Prompt{Version: PromptVersion, Instructions: Instructions, Redacted: redact.Report{}}
	q, r := red.Redact(question)
	for k, v := range r {
		p.Redacted[k] += v
	}
	blocks := make([]block, len(chunks))
	for i, c := range chunks {
		blocks[i] = render(i+1, c, red, p.Redacted)
	}
	empty := make([]string, len(chunks))
	fixedText, err := execInput(q, empty)
	if err != nil {
		return p, err
	}
	fixed := utf8.RuneCountInString(fixedText)
	needs := make([]int, len(blocks))
	total := 0
	for i, b := range blocks {
		needs[i] = b.runes()
		total += needs[i]
	}
	p.SourceChars = fixed + total
	budget := inputCap - fixed
	alloc := needs
	if total > budget {
		headers := 0
		for _, b := range blocks {
			headers += utf8.RuneCountInString(b.header)
		}
		if budget < headers {
			return p, fmt.Errorf("answer: an input cap of %d characters cannot hold the question and %d chunk headers (%d needed)", inputCap, len(blocks), fixed+headers)
		}
		alloc = fairShares(needs, budget)
	}
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		cut, ids, truncated := b.cut(alloc[i])
		texts[i] = cut
		p.Chunks = append(p.Chunks, PromptChunk{N: i + 1, ChunkID: chunks[i].ChunkID, MessageIDs: ids, Truncated: truncated})
	}
	if p.Input, err = execInput(q, texts); err != nil {
		return p, err
	}
	return p, nil
}

func execInput(question string, excerpts []string) (string, error) {
	var buf bytes.Buffer
	err := inputTemplate.Execute(&buf, struct {
		Question string
		Excerpts []string
	}{question, excerpts})
	return buf.String(), err
}

// fairShares splits budget over needs max–min fairly: in ascending order of
// need, each gets min(need, what is left / how many are left).
func fairShares(needs []int, budget int) []int {
	order := make([]int, len(needs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return needs[a] - needs[b] })
	alloc := make([]int, len(needs))
	left := budget
	for j, i := range order {
		share := left / (len(needs) - j)
		alloc[i] = min(needs[i], share)
		left -= alloc[i]
	}
	return alloc
}

// cut keeps the header and the lines that fit in limit code points (a
// newline before each line counts), then as much of the next line as fits,
// ending in "…". It returns the text, the IDs of the messages kept whole or
// in part, and whether anything was left out.
func (b block) cut(limit int) (string, []string, bool) {
	if b.runes() <= limit {
		return b.String(), slices.Clone(b.ids), false
	}
	var sb strings.Builder
	sb.WriteString(b.header)
	used := utf8.RuneCountInString(b.header)
	var ids []string
	for i, l := range b.lines {
		n := 1 + utf8.RuneCountInString(l)
		if used+n <= limit {
			sb.WriteString("\n" + l)
			used += n
			ids = append(ids, b.ids[i])
			continue
		}
		if room := limit - used - 2; room > 0 { // newline and "…"
			sb.WriteString("\n" + string([]rune(l)[:room]) + "…")
			ids = append(ids, b.ids[i])
		}
		break
	}
	return sb.String(), ids, true
}
