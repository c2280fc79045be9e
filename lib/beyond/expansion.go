package beyond

import (
	"fmt"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/retrieval"
	"github.com/linemem/linemem/lib/trec"
)

// ExpansionMetrics are the metrics of the query-expansion comparison:
// Recall@5, whose paired differences the families report, and Recall@20 and
// Recall@200, the candidate ceilings that show whether the candidates
// changed.
var ExpansionMetrics = []string{metrics.Recall5, metrics.Recall20, metrics.Recall200}

// ExpansionNames returns the retrievers compared: the reference (the
// selected hybrid) first, then the other plain bases, then each expander
// over each base in order as "multi:{expander}:{base}".
func ExpansionNames(ref string, bases, expanders []string) []string {
	names := []string{ref}
	for _, b := range bases {
		if b != ref {
			names = append(names, b)
		}
	}
	for _, base := range bases {
		for _, e := range expanders {
			names = append(names, retrieval.Multi+":"+e+":"+base)
		}
	}
	return names
}

// Expansion is the query-expansion comparison.
type Expansion struct {
	Families []*Family // Overall first, then each requested type
	// SubQueries is the mean number of sub-queries per question of each
	// multi-query retriever, by name.
	SubQueries map[string]float64
}

// QueryExpansion evaluates names (ExpansionNames) with setup, whose Builder
// must answer query vectors for sub-queries (retrieval.FoldIn) when a base
// has a vector component, and compares each with names[0] on all questions
// and on each of types under setup's protocol with ExpansionMetrics in
// place of its metrics: ExpansionMetrics with intervals, paired differences
// of the first of them, Holm within each family. Runs are the top
// Protocol.RunDepth.
func QueryExpansion(setup *experiment.Setup, names []string, types []string) (*Expansion, error) {
	s := &experiment.Setup{Questions: setup.Questions, Qrels: setup.Qrels, Builder: setup.Builder, Protocol: setup.Protocol}
	s.Protocol.Metrics, s.Protocol.SelectionMetric = ExpansionMetrics, ExpansionMetrics[0]
	var evs []*experiment.Evaluation
	out := &Expansion{SubQueries: map[string]float64{}}
	queries := setup.QueryTexts()
	for _, n := range names {
		r, err := setup.Builder.Build(n)
		if err != nil {
			return nil, err
		}
		lists, err := retrieval.SearchAll(r, queries, s.Protocol.RunDepth)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		run := trec.Run{}
		for i, q := range setup.Questions {
			run[q.QID] = lists[i]
		}
		ev, err := s.Score(n, run)
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
		if m, ok := r.(*retrieval.MultiQuery); ok {
			subs, err := m.SubQueries(queries)
			if err != nil {
				return nil, err
			}
			count := make([]float64, len(subs))
			for i, sq := range subs {
				count[i] = float64(len(sq))
			}
			out.SubQueries[n] = metrics.Mean(count)
		}
	}
	for _, typ := range append([]string{Overall}, types...) {
		f, err := CompareOn(evs, 0, typ, s.Protocol)
		if err != nil {
			return nil, err
		}
		out.Families = append(out.Families, f)
	}
	return out, nil
}
