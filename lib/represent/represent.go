// Package represent builds the three search representations of a chunk
// (spec §7): raw_text (the chunk's rendering), summary (an imported or
// generated text per chunk) and embedding_text (a fixed prefix, the summary,
// an excerpt label and the first 4,000 characters of raw_text, joined by
// "\n"). It also holds the summary prompt and the embedding input cap.
// Lengths are counted in Unicode code points throughout.
package represent

import (
	"fmt"
	"strings"

	"github.com/linemem/linemem/lib/chat"
)

// Representation names (spec §7, §9).
const (
	RawText          = "raw_text"
	Summary          = "summary"
	EmbeddingTextRep = "embedding_text"
)

// Names lists the representations in spec order.
var Names = []string{RawText, Summary, EmbeddingTextRep}

// EverydayTextRep is the everyday search's representation of a memory in
// which some chunks have a summary and some do not: per chunk,
// embedding_text where the chunk has a summary and raw_text where it has
// none, in one index. It is no representation of the paper (not in Names):
// the paper's protocol never sees it.
const EverydayTextRep = "everyday_text"

// embedding_text parts and limits (spec §7).
const (
	// EmbeddingTextPrefix is the fixed first line of embedding_text.
	EmbeddingTextPrefix = "これはユーザーのLINE履歴から作成した検索用チャンクです。"
	// ExcerptLabel is the line between the summary and the raw excerpt.
	ExcerptLabel = "原文抜粋:"
	// ExcerptChars is how many code points of raw_text embedding_text keeps.
	ExcerptChars = 4000
)

// Summary prompt (spec §7, the Japanese rendering of the paper's Appendix A).
const (
	SummarySystemPrompt = "あなたは個人AIのための記憶検索インデックスを作る担当です。LINEの原文メッセージのチャンクを読み、後で意味検索に使いやすい日本語の自然文要約を書いてください。固有名詞、人間関係、話題、感情、約束、出来事、恋愛・学校・仕事などの文脈を残してください。過度な推測はせず、原文に根拠のある情報だけを書いてください。"
	SummaryUserTemplate = "次のLINE原文メッセージのチャンクを、検索用の自然文として要約してください。200〜500文字程度で書いてください。"
	// SummaryInputChars is how many code points of raw_text the summary
	// input keeps.
	SummaryInputChars = 7000
)

// DefaultEmbeddingCap is the default embedding input cap in code points.
const DefaultEmbeddingCap = 2000

// EmbeddingText returns prefix + "\n" + summary + "\n" + ExcerptLabel + "\n" +
// the first ExcerptChars code points of rawText.
func EmbeddingText(summary, rawText string) string {
	return strings.Join([]string{EmbeddingTextPrefix, summary, ExcerptLabel, FirstRunes(rawText, ExcerptChars)}, "\n")
}

// SummaryInput returns the user message of a summary request:
// SummaryUserTemplate, a blank line, then the first SummaryInputChars code
// points of rawText.
func SummaryInput(rawText string) string {
	return SummaryUserTemplate + "\n\n" + FirstRunes(rawText, SummaryInputChars)
}

// CapInput shortens text longer than cap code points to its first ⌊cap/2⌋
// and last ⌊cap/2⌋ code points joined by "\n…\n", and reports whether it did.
// A text of at most cap code points is returned unchanged. cap < 0 is a
// programmer error and panics.
func CapInput(text string, cap int) (string, bool) {
	if cap < 0 {
		panic(fmt.Sprintf("represent: negative input cap %d", cap))
	}
	runes := []rune(text)
	if len(runes) <= cap {
		return text, false
	}
	half := cap / 2
	return string(runes[:half]) + "\n…\n" + string(runes[len(runes)-half:]), true
}

// Texts returns the text of representation rep for each chunk, in chunk
// order. summaries maps chunk ID to summary; it is needed for Summary and
// EmbeddingTextRep, and every chunk must have one, else the error states how
// many chunks lack a summary; EverydayTextRep takes the summaries there
// are. An unknown rep is an error.
func Texts(rep string, chunks []chat.Chunk, summaries map[string]string) ([]string, error) {
	out := make([]string, len(chunks))
	switch rep {
	case RawText:
		for i, c := range chunks {
			out[i] = c.RawText
		}
		return out, nil
	case EverydayTextRep:
		for i, c := range chunks {
			if s, ok := summaries[c.ID]; ok {
				out[i] = EmbeddingText(s, c.RawText)
			} else {
				out[i] = c.RawText
			}
		}
		return out, nil
	case Summary, EmbeddingTextRep:
	default:
		return nil, fmt.Errorf("unknown representation %q; known: %s", rep, strings.Join(Names, ", "))
	}
	missing, firstMissing := 0, ""
	for i, c := range chunks {
		s, ok := summaries[c.ID]
		if !ok {
			if missing == 0 {
				firstMissing = c.ID
			}
			missing++
			continue
		}
		if rep == Summary {
			out[i] = s
		} else {
			out[i] = EmbeddingText(s, c.RawText)
		}
	}
	if missing > 0 {
		return nil, fmt.Errorf("%s: %d of %d chunks have no summary (first: %s); import or generate summaries first", rep, missing, len(chunks), firstMissing)
	}
	return out, nil
}

// FirstRunes returns the first n code points of s: all of s when it is
// shorter (or n is negative), "" for n = 0.
func FirstRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
