package beyond_test

import (
	"fmt"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/retrieval"
)

// A family of three BM25 retrievers compared with raw_text_bm25 on a
// six-chunk history. Every question names its chunk's topic in raw_text;
// the summaries name it for the even-numbered chunks only and
// embedding_text is built from the summary and a raw_text excerpt, so
// summary_bm25 finds half the gold at rank 1 and embedding_text_bm25 all of
// it. The family reports each method's Success@1 with its interval, and the
// paired difference from the reference with its p-value, Holm-adjusted over
// the two comparisons.
func ExampleCompareOn() {
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
	p.Metrics, p.SelectionMetric = []string{metrics.Success1}, metrics.Success1
	setup := &experiment.Setup{Questions: qs, Qrels: qrels, Builder: builder, Protocol: p}
	evs, err := setup.EvaluateAll([]string{"raw_text_bm25", "summary_bm25", "embedding_text_bm25"})
	if err != nil {
		fmt.Println(err)
		return
	}

	f, err := beyond.CompareOn(evs, 0, beyond.Overall, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, %d questions, reference %s\n", f.Type, f.Questions, f.Methods[f.Ref])
	for i, m := range f.Methods {
		s := f.Scores[i][metrics.Success1]
		fmt.Printf("%-20s %.3f [%.3f, %.3f]", m, s.Mean, s.Lo, s.Hi)
		if d := f.Diffs[i]; d != nil {
			fmt.Printf("  Δ %+.3f  p %.3f  Holm %.3f", d.Mean, d.P, d.Holm)
		}
		fmt.Println()
	}
	// Output:
	// overall, 6 questions, reference raw_text_bm25
	// raw_text_bm25        1.000 [1.000, 1.000]
	// summary_bm25         0.500 [0.167, 0.833]  Δ -0.500  p 0.020  Holm 0.040
	// embedding_text_bm25  1.000 [1.000, 1.000]  Δ +0.000  p 1.000  Holm 1.000
}
