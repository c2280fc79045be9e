package robustness

import "github.com/linemem/linemem/lib/metrics"

// PaperValue is one figure the paper reports: a macro metric of a retriever
// on its 100 questions.
type PaperValue struct {
	Retriever, Metric string
	Value             float64
}

// Paper holds the values of the paper's Table 3 (single retrievers) and
// Table 4's selected hybrid (E-BM25+E-Vec at β = 0.45), and the Recall@5
// difference of Table 5 (selected hybrid − embedding_text_bm25), so that each
// can be placed within the spread over seeds. The paper reports no
// success@5.
var Paper = []PaperValue{
	{"raw_text_bm25", metrics.Recall5, 0.427}, {"raw_text_bm25", metrics.MRR5, 0.354}, {"raw_text_bm25", metrics.NDCG5, 0.348},
	{"summary_bm25", metrics.Recall5, 0.463}, {"summary_bm25", metrics.MRR5, 0.419}, {"summary_bm25", metrics.NDCG5, 0.395},
	{"summary_vector", metrics.Recall5, 0.541}, {"summary_vector", metrics.MRR5, 0.445}, {"summary_vector", metrics.NDCG5, 0.436},
	{"embedding_text_vector", metrics.Recall5, 0.549}, {"embedding_text_vector", metrics.MRR5, 0.459}, {"embedding_text_vector", metrics.NDCG5, 0.455},
	{"embedding_text_bm25", metrics.Recall5, 0.584}, {"embedding_text_bm25", metrics.MRR5, 0.491}, {"embedding_text_bm25", metrics.NDCG5, 0.478},
	{SelectedHybrid, metrics.Recall5, 0.697}, {SelectedHybrid, metrics.MRR5, 0.595}, {SelectedHybrid, metrics.NDCG5, 0.575},
	{HybridGain, metrics.Recall5, 0.113},
}

// PaperSelection is the configuration the paper's sweep selected (Table 4).
const (
	PaperPairing = "E-BM25+E-Vec"
	PaperBeta    = 0.45
)

// PaperValueOf returns the paper's value of metric for retriever (a
// single retriever's name, SelectedHybrid or HybridGain).
func PaperValueOf(retriever, metric string) (float64, bool) {
	for _, p := range Paper {
		if p.Retriever == retriever && p.Metric == metric {
			return p.Value, true
		}
	}
	return 0, false
}
