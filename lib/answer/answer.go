// Package answer is the generation stage of personal-memory RAG: given a
// question and the top-k chunks that lib/memory retrieved for it, it writes
// an answer that cites the chunks it rests on ([1], [2], …) or says that the
// history does not contain the answer.
//
// Two answerers implement Answerer:
//
//   - Extractive (offline, the baseline): BM25 over the messages of the
//     supplied chunks, scored against the question; the best-matching message
//     and the message after it in its chunk are the answer, cited by their
//     chunk number. No message sharing a term with the question → abstain.
//   - Remote: a generator behind the OpenAI Responses API (lib/provider's
//     Summarizer: instructions + one input string → text), given the Japanese
//     prompt of prompt_ja.txt (embedded; its version, PromptVersion, carries
//     a hash of the file) and the numbered chunks cut to the input cap.
//     Answers are cached with provenance in lib/provider/cache; nothing is
//     sent unless the caller allows remote calls.
//
// Prompt layout (BuildPrompt): the question, then the chunks in rank order,
// each as a header line "[n] SOURCE START〜END" and one line per message
// "YYYY-MM-DD HH:MM SENDER: TEXT". The whole input is at most InputCap code
// points: when the chunks do not fit, each gets a max–min fair share of what
// the fixed text leaves (chunks shorter than their share keep everything and
// pass the rest on), messages are kept in order while they fit, and the first
// message that does not fit is cut with "…". Every chunk keeps its number and
// header, so every number in the prompt can be cited.
//
// Citations (ParseCitations): "[n]", "[n, m]", "[n][m]", full-width
// brackets and digits, and the separators "," "、" "，". Numbers are kept in
// order of first appearance; a number outside 1…len(chunks) is reported as
// invalid, a number cited again as a duplicate, and neither is dropped
// silently.
//
// Imports: lib/memory (the chunks and messages), lib/bm25, lib/tokenize,
// lib/provider, lib/provider/cache, lib/redact, golang.org/x/text and the
// standard library.
package answer

import (
	"context"
	"time"

	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/provider"
)

// AbstainPhrase is what an answer says when the supplied chunks do not hold
// the answer; an answer containing it counts as an abstention.
const AbstainPhrase = "履歴からは分かりません"

// DefaultK is the number of chunks an answer is built from.
const DefaultK = 5

// Answerer answers a question from retrieved chunks.
type Answerer interface {
	// Name is the provider name ("extractive", "openai").
	Name() string
	// Model names what writes the answer: the requested model, or the
	// extractive method and its tokenizer.
	Model() string
	// Answer answers question from chunks (rank order, numbered from 1).
	Answer(ctx context.Context, question string, chunks []memory.Result) (Answer, error)
}

// Citation is one chunk an answer cites.
type Citation struct {
	N          int      `json:"n"`           // the chunk's number in the prompt, from 1
	ChunkID    string   `json:"chunk_id"`    // the chunk
	MessageIDs []string `json:"message_ids"` // the messages of the chunk the answer rests on
}

// Answer is one answer with its citations and provenance.
type Answer struct {
	Question      string     `json:"question"`
	Text          string     `json:"answer"`
	Citations     []Citation `json:"citations"`
	Invalid       []int      `json:"invalid_citations,omitempty"`   // numbers that name no supplied chunk
	Duplicates    []int      `json:"duplicate_citations,omitempty"` // numbers cited more than once
	Abstained     bool       `json:"abstained"`
	Retriever     string     `json:"retriever"`
	Provider      string     `json:"provider"`
	Model         string     `json:"model"`
	PromptVersion string     `json:"prompt_version"`
	Chunks        []string   `json:"chunks"` // chunk IDs supplied, in rank order
	Truncated     []int      `json:"truncated,omitempty"`
	Usage         Usage      `json:"usage"`
	Cached        bool       `json:"cached"`
	ReturnedModel string     `json:"returned_model,omitempty"`
	Latency       float64    `json:"latency_ms"`
}

// Usage is the token accounting of the call behind an answer (zero for the
// extractive baseline).
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	TotalTokens  int64 `json:"total_tokens"`
}

func usageOf(u provider.Usage) Usage {
	return Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func chunkIDs(chunks []memory.Result) []string {
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		ids[i] = c.ChunkID
	}
	return ids
}
