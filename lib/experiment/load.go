package experiment

import (
	"fmt"
	"sort"

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

// LoadQuestionSetWith reads a question file and its qrels (trec.ReadQrelsWith
// under opts, whose warnings it returns) and checks that every qrels qid is
// a question (spec §11). A questions file without a question is an
// *inputerr.Error naming that file, line 1; an unknown qid is one naming the
// qrels file at the first line of the unknown qid that comes first in the
// file, with how many unknown qids there are, so the same input always gives
// the same message.
func LoadQuestionSetWith(questionsPath, qrelsPath string, opts trec.QrelsOptions) ([]questions.Question, ranking.Qrels, []inputerr.Error, error) {
	qs, err := questions.ReadFile(questionsPath)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(qs) == 0 {
		return nil, nil, nil, inputerr.At(questionsPath, 1, `at least one question, one JSON line {"qid", "question", …}; the file has none`)
	}
	file, err := trec.ReadQrelsFileWith(qrelsPath, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	known := make(map[string]bool, len(qs))
	for _, q := range qs {
		known[q.QID] = true
	}
	var unknown []string
	for qid := range file.Qrels {
		if !known[qid] {
			unknown = append(unknown, qid)
		}
	}
	if len(unknown) > 0 {
		sort.Slice(unknown, func(i, j int) bool { return file.FirstLine[unknown[i]] < file.FirstLine[unknown[j]] })
		first := unknown[0]
		more := ""
		if len(unknown) > 1 {
			more = fmt.Sprintf(" (%d qids of the qrels are not in the questions)", len(unknown))
		}
		return nil, nil, nil, inputerr.Atf(qrelsPath, file.FirstLine[first], "a qid of %s, got %q%s", questionsPath, first, more)
	}
	return qs, file.Qrels, file.Warnings, nil
}
