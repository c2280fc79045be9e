package answer

import (
	"context"
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
type Extractive struct {
	tok tokenize.Tokenizer
}

// NewExtractive returns the baseline over tok's terms.
func NewExtractive(tok tokenize.Tokenizer) *Extractive { return &Extractive{tok: tok} }

// Name is ExtractiveName.
func (e *Extractive) Name() string { return ExtractiveName }

// Model names the method and its tokenizer, e.g. "bm25-message+next/kagome".
func (e *Extractive) Model() string { return "bm25-message+next/" + e.tok.Name() }

type located struct{ chunk, msg int }

// Answer implements Answerer. It never fails except on a cancelled context.
func (e *Extractive) Answer(ctx context.Context, question string, chunks []memory.Result) (Answer, error) {
	a := Answer{Question: question, Provider: e.Name(), Model: e.Model(), Chunks: chunkIDs(chunks), Citations: []Citation{}}
	if err := ctx.Err(); err != nil {
		return a, err
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
