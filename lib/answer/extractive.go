package answer

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/bm25"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize"
)

// ExtractiveName is the provider name of the extractive baseline.
const ExtractiveName = "extractive"

// DefaultExtractiveTokenizer tokenizes questions and messages for the
// extractive baseline: content words in base form suit short chat lines
// better than the paper's regular expression.
const DefaultExtractiveTokenizer = "kagome"

// Extractive answers with the chats' own words: among the distinct messages
// of the supplied chunks (a message in two overlapping windows counts once,
// under the better-ranked chunk), the one with the highest BM25 score
// against the question (lib/bm25, k1 = 1.2, b = 0.75, documents = messages,
// ties by later time, then message ID) and, when its chunk has one, the
// message right after it — in chat an answer usually follows the line that
// echoes the question's words. Both texts are joined by a space and cited by
// the chunk's number. When no message shares a term with the question the
// answer is AbstainPhrase with no citation.
//
// Other methods (NewExtractiveMethod) pick the message otherwise; see
// Methods.
type Extractive struct {
	tok    tokenize.Tokenizer
	method string
	me     string // the history's owner as a sender name; "" = unknown
	// idf weighs a question term in MethodCoverage; nil: its IDF over the
	// top window's messages
	idf func(term string) float64
}

// WithIDF returns e weighing question terms by idf in MethodCoverage, the
// IDF over the whole history's index (memory.Memory.TermIDF) rather than
// over the top window's messages: a word every message of the window
// shares can still be common in the history, and a word the window holds
// once can be rare everywhere.
func (e *Extractive) WithIDF(idf func(term string) float64) *Extractive {
	c := *e
	c.idf = idf
	return &c
}

// WithMe returns e naming the history's owner: a quoted line by a sender
// that me names (memory.NameMatches) is said to be the asker's own.
func (e *Extractive) WithMe(me string) *Extractive {
	c := *e
	c.me = me
	return &c
}

// Extractive methods.
const (
	// MethodBM25Next is the method described on Extractive, the one
	// `reproduce` scores.
	MethodBM25Next = "bm25-message+next"
	// MethodCoverage scores each message of the top window by how much of
	// the question it and its neighbours hold (see coverageAnswer); `ask`'s.
	MethodCoverage = "coverage+neighbours"
	// MethodFirstMatch quotes the first marked message of the top window
	// alone (a baseline).
	MethodFirstMatch = "top-window-first-match"
	// MethodTopWindowBM25 quotes the top window's best BM25 message alone
	// (a baseline).
	MethodTopWindowBM25 = "top-window-bm25"
)

// Methods lists the extractive methods, `ask`'s default first.
var Methods = []string{MethodCoverage, MethodBM25Next, MethodFirstMatch, MethodTopWindowBM25}

// NewExtractive returns the baseline over tok's terms (MethodBM25Next).
func NewExtractive(tok tokenize.Tokenizer) *Extractive {
	return &Extractive{tok: tok, method: MethodBM25Next}
}

// NewExtractiveMethod returns the extractive answerer of method, one of
// Methods.
func NewExtractiveMethod(tok tokenize.Tokenizer, method string) (*Extractive, error) {
	if !slices.Contains(Methods, method) {
		return nil, fmt.Errorf("unknown extractive method %q; known: %s", method, strings.Join(Methods, ", "))
	}
	return &Extractive{tok: tok, method: method}, nil
}

// Name is ExtractiveName.
func (e *Extractive) Name() string { return ExtractiveName }

// Model names the method and its tokenizer, e.g. "bm25-message+next/kagome".
func (e *Extractive) Model() string { return e.method + "/" + e.tok.Name() }

type located struct{ chunk, msg int }

// windows returns chunks with their messages cut to the window
// (memory.Result.Window): an answer rests on the windows search ranked,
// not on the message after one that search shows beside it.
func windows(chunks []memory.Result) []memory.Result {
	out := make([]memory.Result, len(chunks))
	for i, c := range chunks {
		c.Messages = c.Window()
		out[i] = c
	}
	return out
}

// Answer implements Answerer. It never fails except on a cancelled context.
func (e *Extractive) Answer(ctx context.Context, question string, chunks []memory.Result) (Answer, error) {
	a := Answer{Question: question, Provider: e.Name(), Model: e.Model(), Chunks: chunkIDs(chunks), Citations: []Citation{}}
	if err := ctx.Err(); err != nil {
		return a, err
	}
	chunks = windows(chunks)
	switch e.method {
	case MethodCoverage:
		return e.coverageAnswer(a, question, chunks), nil
	case MethodFirstMatch:
		return firstMatchAnswer(a, chunks), nil
	case MethodTopWindowBM25:
		return e.topWindowBM25Answer(a, question, chunks), nil
	}
	var docs []bm25.Doc
	where := map[string]located{}
	for i, c := range chunks {
		for j, m := range c.Messages {
			if _, dup := where[m.ID]; dup || strings.TrimSpace(m.Text) == "" {
				continue
			}
			where[m.ID] = located{i, j}
			docs = append(docs, bm25.Doc{ID: m.ID, StartAt: m.At.Format("2006-01-02T15:04:05"), Text: m.Text})
		}
	}
	hits := bm25.New(docs, e.tok).Search(question, 1)
	if len(hits) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a, nil
	}
	at := where[hits[0].ChunkID]
	c := chunks[at.chunk]
	texts := []string{c.Messages[at.msg].Text}
	ids := []string{c.Messages[at.msg].ID}
	if next := at.msg + 1; next < len(c.Messages) && strings.TrimSpace(c.Messages[next].Text) != "" {
		texts = append(texts, c.Messages[next].Text)
		ids = append(ids, c.Messages[next].ID)
	}
	n := at.chunk + 1
	a.Text = strings.ReplaceAll(strings.Join(texts, " "), "\n", " ") + " [" + strconv.Itoa(n) + "]"
	a.Citations = []Citation{{N: n, ChunkID: c.ChunkID, MessageIDs: ids}}
	return a, nil
}

// topWindowBM25Answer is MethodTopWindowBM25: the top window's message with
// the highest BM25 score against the question (documents = its messages),
// quoted alone; AbstainPhrase when none shares a term with the question.
func (e *Extractive) topWindowBM25Answer(a Answer, question string, chunks []memory.Result) Answer {
	if len(chunks) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a
	}
	var docs []bm25.Doc
	at := map[string]int{}
	for j, m := range chunks[0].Messages {
		if _, dup := at[m.ID]; dup || strings.TrimSpace(m.Text) == "" {
			continue
		}
		at[m.ID] = j
		docs = append(docs, bm25.Doc{ID: m.ID, StartAt: m.At.Format("2006-01-02T15:04:05"), Text: m.Text})
	}
	hits := bm25.New(docs, e.tok).Search(question, 1)
	if len(hits) == 0 {
		a.Text, a.Abstained = AbstainPhrase, true
		return a
	}
	return quoteOne(a, chunks, 0, at[hits[0].ChunkID])
}
