package analysis_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/analysis"
)

func ExampleFirstMax() {
	// Recall@5 of three configurations in pairing order, then β ascending.
	names := []string{
		"hybrid:summary_bm25+summary_vector@0.45",
		"hybrid:summary_bm25+summary_vector@0.50",
		"hybrid:embedding_text_bm25+embedding_text_vector@0.45",
	}
	best, err := analysis.FirstMax([]float64{0.64, 0.65, 0.65})
	if err != nil {
		panic(err)
	}
	fmt.Println(names[best])
	// Output:
	// hybrid:summary_bm25+summary_vector@0.50
}
