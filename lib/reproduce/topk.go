package reproduce

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
	"github.com/linemem/linemem/lib/report"
)

// figure6 is the paper's Figure 6.
var figure6 = figureArtefact("figure6", NeedsSweep, true, topKFigure)

// topK returns Recall@k and Success@k by type for k = 5, 10, 20 under the
// summary hybrid.
func topK(s *Study) ([]analysis.TopKRow, error) {
	sh, _, err := s.SummaryHybrid()
	if err != nil {
		return nil, err
	}
	return analysis.TopKSensitivity(s.Questions, s.Qrels, sh.Run, TopKCutoffs)
}

// topKFigure plots Top-K sensitivity by question type under the summary hybrid.
func topKFigure(s *Study) (Figure, error) {
	rows, err := topK(s)
	if err != nil {
		return Figure{}, err
	}
	_, cfg, err := s.SummaryHybrid()
	if err != nil {
		return Figure{}, err
	}
	var series []report.Series
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.Type]
		if !ok {
			i = len(series)
			index[r.Type] = i
			series = append(series, report.Series{Label: r.Type})
		}
		series[i].X = append(series[i].X, float64(r.K))
		series[i].Y = append(series[i].Y, r.Recall)
	}
	p, err := report.TopKSensitivity(fmt.Sprintf("Top-K sensitivity by question type (summary hybrid, β = %.2f)", cfg.Beta), "Recall@K", TopKCutoffs, series)
	return Figure{Number: 6, Slug: "topk_sensitivity", Plot: p, Notes: []string{"Summary hybrid: S-BM25+S-Vec (S: summary; Vec: dense vector retrieval); K: the number of retrieved chunks."}}, err
}
