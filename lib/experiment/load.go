package experiment

import (
	"github.com/linemem/linemem/lib/datafolder"
	"github.com/linemem/linemem/lib/inputerr"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/trec"
)

// LoadQuestionSet is LoadQuestionSetWith under the default qrels options:
// conflicting qrels rows are an error.
func LoadQuestionSet(questionsPath, qrelsPath string) ([]questions.Question, ranking.Qrels, error) {
	qs, qrels, _, err := LoadQuestionSetWith(questionsPath, qrelsPath, trec.QrelsOptions{})
	return qs, qrels, err
}

// LoadQuestionSetWith is datafolder.ReadQuestionSet: a question file and its
// qrels (trec.ReadQrelsWith under opts, whose warnings it returns), every
// qrels qid checked to be a question (spec §11).
func LoadQuestionSetWith(questionsPath, qrelsPath string, opts trec.QrelsOptions) ([]questions.Question, ranking.Qrels, []inputerr.Error, error) {
	return datafolder.ReadQuestionSet(questionsPath, qrelsPath, opts)
}
