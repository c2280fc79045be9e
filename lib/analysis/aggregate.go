package analysis

import (
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// ChunkSpan locates a chunk: its source file and the dates (YYYY-MM-DD) of
// its first and last message.
type ChunkSpan struct {
	Source    string
	FirstDate string
	LastDate  string
}

// AggregateDiagnostics describes the evaluated aggregate questions (paper
// §7.3: "17 aggregate questions, with a mean of 2.35 primary-gold chunks.
// Nine spanned multiple dates and five spanned multiple sources. Of the nine
// aggregate questions that failed at Top 5, two were recovered … at Top 10,
// and four in total … at Top 20").
type AggregateDiagnostics struct {
	Questions       int     // evaluated aggregate questions
	MeanPrimaryGold float64 // mean |G2| over them; 0 when there are none
	// MultiDate counts questions whose primary gold covers more than one
	// date: the set of FirstDate and LastDate over its G2 chunks has more
	// than one element (one chunk crossing midnight is enough).
	MultiDate int
	// MultiSource counts questions whose G2 chunks come from more than one
	// source.
	MultiSource int
	// UnknownChunks counts G2 chunks absent from spans (for example gold
	// missing from the corpus); they are left out of MultiDate and
	// MultiSource but still count in MeanPrimaryGold.
	UnknownChunks int
	K             int        // the failure cutoff
	Failures      int        // aggregate questions with Success@K = 0
	Recovered     []Recovery // of those failures, per wider cutoff
}

// DiagnoseAggregate computes AggregateDiagnostics for the aggregate
// questions of qs, with Top-k failures of run recovered at each cutoff of
// wider (typically 10 and 20).
func DiagnoseAggregate(qs []questions.Question, qrels ranking.Qrels, run ranking.Run, spans map[string]ChunkSpan, k int, wider []int) (AggregateDiagnostics, error) {
	var agg []questions.Question
	for _, q := range qs {
		if q.Type == questions.Aggregate {
			agg = append(agg, q)
		}
	}
	fails, err := Failures(agg, qrels, run, k)
	if err != nil {
		return AggregateDiagnostics{}, err
	}
	recovered, err := Recover(agg, qrels, run, fails, wider)
	if err != nil {
		return AggregateDiagnostics{}, err
	}
	res, err := metrics.Evaluate(agg, qrels, nil, nil)
	if err != nil {
		return AggregateDiagnostics{}, err
	}
	d := AggregateDiagnostics{Questions: len(res.QIDs), K: k, Failures: len(fails), Recovered: recovered}
	gold := make([]float64, len(res.QIDs))
	for i, qid := range res.QIDs {
		dates, sources := map[string]bool{}, map[string]bool{}
		for id, rel := range qrels[qid] {
			if rel != metrics.PrimaryRel {
				continue
			}
			gold[i]++
			span, ok := spans[id]
			if !ok {
				d.UnknownChunks++
				continue
			}
			dates[span.FirstDate], dates[span.LastDate] = true, true
			sources[span.Source] = true
		}
		if len(dates) > 1 {
			d.MultiDate++
		}
		if len(sources) > 1 {
			d.MultiSource++
		}
	}
	d.MeanPrimaryGold = metrics.Mean(gold)
	return d, nil
}
