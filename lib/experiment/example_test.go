package experiment_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// Two BM25 retrievers on a six-chunk history, scored under the paper's
// protocol with a smaller bootstrap and the two metrics of interest here.
// Each question names its own chunk in its raw_text; the summaries name
// only three of them, so summary_bm25 ranks the other three questions' gold
// nowhere and its Success@1 is 3/6. The paired difference carries its 95%
// percentile interval over the 200 shared resamples of the questions.
func Example() {
	topics := []string{"花見", "文化祭", "鍋料理", "旅行", "保険証", "誕生日"}
	var chunks []chat.Chunk
	summaries := map[string]string{}
	var qs []questions.Question
	qrels := ranking.Qrels{}
	for i, topic := range topics {
		id := fmt.Sprintf("c%d", i)
		chunks = append(chunks, chat.Chunk{ID: id, RawText: topic + "の話をした"})
		summaries[id] = "予定の相談"
		if i%2 == 0 {
			summaries[id] = topic + "の相談"
		}
		qid := fmt.Sprintf("q%d", i)
		qs = append(qs, questions.Question{QID: qid, Question: topic + "はどうなった", Type: questions.Types[0]})
		qrels[qid] = map[string]int{id: 2}
	}
	builder := retrieval.NewBuilder(retrieval.Corpus{Chunks: chunks, Summaries: summaries}, nil, retrieval.Options{IndexDir: "-"})

	p := experiment.PaperProtocol()
	p.B, p.Seed = 200, 1
	p.Metrics, p.SelectionMetric = []string{metrics.Success1, metrics.MRR5}, metrics.Success1
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Builder: builder, Protocol: p}

	evs, err := setup.EvaluateAll([]string{"raw_text_bm25", "summary_bm25"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ev := range evs {
		fmt.Printf("%-14s success@1 %.3f  mrr@5 %.3f\n", ev.Name, ev.CI[metrics.Success1].Mean, ev.CI[metrics.MRR5].Mean)
	}
	d, err := setup.PairedDifference(evs[0], evs[1], p.SelectionMetric)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("raw − summary  %s %+.3f [%+.3f, %+.3f]\n", d.Metric, d.Mean, d.Lo, d.Hi)
	// Output:
	// raw_text_bm25  success@1 1.000  mrr@5 1.000
	// summary_bm25   success@1 0.500  mrr@5 0.500
	// raw − summary  success@1 +0.500 [+0.167, +0.833]
}
