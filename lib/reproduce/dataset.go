package reproduce

import (
	"fmt"
	"strconv"

	"github.com/linemem/linemem/lib/report"
)

// table1 is the paper's Table 1.
var table1 = tableArtefact("table1", 0, true, func(s *Study) (report.Table, error) { return datasetTable(s), nil })

// datasetTable describes the dataset (paper Table 1, with the chunk statistics of
// §3.2–3.3 and the gold counts of §4.3).
func datasetTable(s *Study) report.Table {
	order, counts := s.QuestionCounts()
	rel2, rel1 := 0, 0
	for _, docs := range s.Qrels {
		for _, rel := range docs {
			switch rel {
			case 2:
				rel2++
			case 1:
				rel1++
			}
		}
	}
	st := s.Stats
	rows := [][]string{
		{"LINE messages", strconv.Itoa(st.Messages)},
		{"Sources", strconv.Itoa(st.Sources)},
		{"Chunks", strconv.Itoa(st.Chunks)},
		{"Messages in no chunk (render-limit trimming)", strconv.Itoa(st.UncoveredMessages)},
		{"raw_text length, mean / p95 / max (characters)", fmt.Sprintf("%.0f / %.0f / %d", st.RawTextLength.Mean, st.RawTextLength.P95, st.RawTextLength.Max)},
		{"summary length, mean / p95 / max (characters)", fmt.Sprintf("%.0f / %.0f / %d", st.SummaryLength.Mean, st.SummaryLength.P95, st.SummaryLength.Max)},
		{"Evaluation questions", strconv.Itoa(len(s.Questions))},
	}
	for _, t := range order {
		if counts[t] > 0 {
			rows = append(rows, []string{"  " + t, strconv.Itoa(counts[t])})
		}
	}
	rows = append(rows,
		[]string{"Primary-gold (rel 2) / secondary-gold (rel 1) chunks", fmt.Sprintf("%d / %d", rel2, rel1)},
		[]string{"Main evaluation unit", "chunk"},
		[]string{"Embedding model", s.EmbedModel},
		[]string{"BM25 tokenizer", s.Protocol.Tokenizer},
	)
	notes := []string{"Gold: " + s.GoldReport + "."}
	if missing := s.MissingGold(); len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("Warning: %d gold chunk IDs are not in the corpus; they still count in the denominators.", len(missing)))
	}
	return report.Table{
		Number: 1, Slug: "dataset", Caption: "Dataset statistics",
		Columns: []string{"Item", "Value"}, Align: []report.Alignment{report.AlignLeft, report.AlignRight}, Rows: rows,
		Notes: notes,
	}
}
