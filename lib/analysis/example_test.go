package analysis_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
)

func ExampleSelect() {
	// Configurations in pairing order, then β ascending.
	configs := []analysis.Config{
		{Name: "hybrid:summary_bm25+summary_vector@0.45", Beta: 0.45, Scores: map[string]float64{"recall@5": 0.64}},
		{Name: "hybrid:summary_bm25+summary_vector@0.50", Beta: 0.50, Scores: map[string]float64{"recall@5": 0.65}},
		{Name: "hybrid:embedding_text_bm25+embedding_text_vector@0.45", Beta: 0.45, Scores: map[string]float64{"recall@5": 0.65}},
	}
	best, err := analysis.Select(configs, "recall@5")
	if err != nil {
		panic(err)
	}
	fmt.Println(best.Name)
	// Output:
	// hybrid:summary_bm25+summary_vector@0.50
}
