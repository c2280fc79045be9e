package reproduce

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/linemem/linemem/lib/experiment"
)

// PerQuestionFile is the per-question metrics CSV: question IDs and types
// only, never question or chat text (as the paper released).
const PerQuestionFile = "per_question_metrics.csv"

// perQuestionArtefact is PerQuestionFile.
var perQuestionArtefact = Artefact{Slug: strings.TrimSuffix(PerQuestionFile, ".csv"), Needs: NeedsSingles | NeedsSweep, Build: perQuestion}

// perQuestionEvaluations are the runs whose per-question scores are released:
// the single retrievers, the selected hybrid and the summary hybrid.
func perQuestionEvaluations(s *Study) ([]*experiment.Evaluation, error) {
	singles, err := s.Singles()
	if err != nil {
		return nil, err
	}
	best, _, err := s.Selected()
	if err != nil {
		return nil, err
	}
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return nil, err
	}
	evs := append(append([]*experiment.Evaluation(nil), singles...), best)
	if sh.Name != best.Name {
		evs = append(evs, sh)
	}
	return evs, nil
}

// perQuestion writes one row per evaluated question and run of
// perQuestionEvaluations: qid, type, retriever and the protocol's metrics.
func perQuestion(s *Study) (Output, error) {
	evs, err := perQuestionEvaluations(s)
	if err != nil {
		return Output{}, err
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	header := append([]string{"qid", "type", "retriever"}, s.Protocol.Metrics...)
	w.Write(header)
	for _, ev := range evs {
		res := ev.Result
		for i, qid := range res.QIDs {
			row := []string{qid, res.Types[i], ev.Name}
			for _, m := range s.Protocol.Metrics {
				row = append(row, strconv.FormatFloat(res.Scores(m)[i], 'g', -1, 64))
			}
			w.Write(row)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return Output{}, err
	}
	return Output{File: &File{Name: PerQuestionFile, Data: b.Bytes()}}, nil
}
