package answereval

import (
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/tokenize"
)

// Run is one answerer over one retriever's top k, scored.
type Run struct {
	Label         string // how tables name the retriever ("embedding_text_bm25", "selected hybrid")
	Retriever     string
	Provider      string
	Model         string
	PromptVersion string // "" for the extractive baseline
	K             int
	F1Tokenizer   string
	Scores        *Scores
	Groups        []Group // overall, then by question type
}

// ScoreRun scores items against qrels with tok (Score) and summarises them
// by question type with b resamples from seed at bootstrap.DefaultLevel
// (Summarize), under label; the retriever, provider, model and prompt
// version are the first item's.
func ScoreRun(label string, k int, items []Item, qrels map[string]map[string]int, tok tokenize.Tokenizer, b int, seed uint64) Run {
	run := Run{Label: label, K: k, F1Tokenizer: tok.Name()}
	if len(items) > 0 {
		a := items[0].Answer
		run.Retriever, run.Provider, run.Model, run.PromptVersion = a.Retriever, a.Provider, a.Model, a.PromptVersion
	}
	run.Scores = Score(items, qrels, tok)
	run.Groups = Summarize(run.Scores, questions.Types, b, seed, bootstrap.DefaultLevel)
	return run
}
