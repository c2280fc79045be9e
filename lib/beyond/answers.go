package beyond

import (
	"context"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/store"
	"github.com/linemem/linemem/lib/tokenize"
)

// AnswerRetrievers label the retrievers Answers answers from: the paper's
// best single retriever (the everyday default) and the selected hybrid.
var AnswerRetrievers = []string{"embedding_text_bm25", "selected hybrid"}

// AnswerSettings are the parameters Answers runs under, as lib/answer
// defines them, for captions and the manifest.
type AnswerSettings struct {
	K                   int    // chunks retrieved per question (answer.DefaultK)
	Answerer            string // answer.ExtractiveName
	ExtractiveTokenizer string // answer.DefaultExtractiveTokenizer
}

// AnswersSettings returns the settings of lib/answer that Answers runs under.
func AnswersSettings() AnswerSettings {
	return AnswerSettings{answer.DefaultK, answer.ExtractiveName, answer.DefaultExtractiveTokenizer}
}

// Answers answers every question of o's Setup with the extractive baseline
// (answer.NewExtractive) from the top answer.DefaultK chunks of each of
// AnswerRetrievers — embedding_text_bm25 and o's selected hybrid — retrieved
// through lib/memory over st under the protocol's tokenizer and the vectors
// of embedModel, and scores them (answereval.ScoreRun) with the protocol's
// B and seed. lib/memory is the everyday search, not the protocol: its
// fallback for a question whose BM25 terms match nothing can supply chunks
// the protocol's run lacks.
func Answers(o *experiment.Outcome, st *store.Store, embedModel string) ([]answereval.Run, error) {
	_, cfg, err := o.Selected()
	if err != nil {
		return nil, err
	}
	tok, err := tokenize.New(answer.DefaultExtractiveTokenizer)
	if err != nil {
		return nil, err
	}
	f1tok, err := tokenize.New(answereval.DefaultTokenizer)
	if err != nil {
		return nil, err
	}
	p, setup := o.Protocol(), o.Setup
	ex := answer.NewExtractive(tok)
	var runs []answereval.Run
	for i, name := range []string{AnswerRetrievers[0], cfg.Name} {
		mem, err := memory.Open(st, memory.Options{Retriever: name, Tokenizer: p.Tokenizer, EmbedModel: embedModel})
		if err != nil {
			return nil, err
		}
		items, err := answereval.Answer(context.Background(), mem, ex, setup.Questions, answer.DefaultK, nil)
		if err != nil {
			return nil, err
		}
		runs = append(runs, answereval.ScoreRun(AnswerRetrievers[i], answer.DefaultK, items, setup.Qrels, f1tok, p.B, p.Seed))
	}
	return runs, nil
}
