package beyond

import (
	"fmt"
	"slices"

	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/trec"
)

// GroupScores returns gold.GroupRecall@k of run over the evidence groups
// (gold.Groups) of each question of qids, in order.
func GroupScores(groups map[string][]gold.Group, run trec.Run, qids []string, k int) []float64 {
	out := make([]float64, len(qids))
	for i, q := range qids {
		out[i] = gold.GroupRecall(groups[q], run[q], k)
	}
	return out
}

// EvidenceGroups compares chunk-level and group-level recall of the single
// retrievers and the selected hybrid of one Outcome (EvidenceGroups).
type EvidenceGroups struct {
	Metric  string   // the chunk-level metric: the protocol's selection metric, "recall@K"
	K       int      // the cutoff of Metric, shared by the group-level recall
	Methods []string // the single retrievers in Singles order, then the selected hybrid
	// Chunk and Group are each method's macro Metric and group recall@K
	// with their percentile intervals over the Setup's shared resamples.
	Chunk, Group []experiment.Interval
	// ChunkRank and GroupRank rank the methods by mean, 1 = best, ties in
	// method order.
	ChunkRank, GroupRank []int
	// Diffs are the group-level paired differences method − selected
	// hybrid, Holm-adjusted across them; one per single retriever.
	Diffs []*Diff
	// Questions evaluated; Groups and GroupChunks over them, and MultiChunk:
	// the groups of more than one chunk.
	Questions, Groups, GroupChunks, MultiChunk int
}

// CompareEvidenceGroups scores every single retriever of o and its selected
// hybrid by group-level recall@K (gold.GroupRecall over groups, which
// gold.Groups builds from the resolved evidence and the qrels) beside
// chunk-level recall@K, K the cutoff of the protocol's selection metric,
// which must be of the recall family. Intervals and paired differences use
// the Setup's shared B × n resamples at the protocol's level.
func CompareEvidenceGroups(o *experiment.Outcome, groups map[string][]gold.Group) (*EvidenceGroups, error) {
	p := o.Protocol()
	m, err := metrics.Parse(p.SelectionMetric)
	if err != nil {
		return nil, err
	}
	if m.Family != "recall" {
		return nil, fmt.Errorf("evidence groups: group recall is compared with chunk recall, but the selection metric is %s", p.SelectionMetric)
	}
	singles, err := o.Singles()
	if err != nil {
		return nil, err
	}
	best, _, err := o.Selected()
	if err != nil {
		return nil, err
	}
	evs := append(slices.Clone(singles), best)
	qids := best.Result.QIDs
	ix := o.Setup.Indices(len(qids))
	g := &EvidenceGroups{Metric: m.Name, K: m.K, Questions: len(qids)}
	chunkR, groupR := make([][]float64, len(evs)), make([][]float64, len(evs))
	for i, e := range evs {
		g.Methods = append(g.Methods, e.Name)
		chunkR[i] = e.Result.Scores(m.Name)
		groupR[i] = GroupScores(groups, e.Run, qids, m.K)
		g.Chunk = append(g.Chunk, meanCI(ix, chunkR[i], p.Level))
		g.Group = append(g.Group, meanCI(ix, groupR[i], p.Level))
	}
	for i := range evs[:len(evs)-1] {
		d := PairedDiff(ix, groupR[i], groupR[len(evs)-1], p.Level)
		g.Diffs = append(g.Diffs, &d)
	}
	HolmAll(g.Diffs)
	g.ChunkRank, g.GroupRank = rankByMean(chunkR), rankByMean(groupR)
	for _, q := range qids {
		g.Groups += len(groups[q])
		for _, gr := range groups[q] {
			g.GroupChunks += len(gr.ChunkIDs)
			if len(gr.ChunkIDs) > 1 {
				g.MultiChunk++
			}
		}
	}
	return g, nil
}

// rankByMean ranks score vectors by their mean, 1 = highest, ties in slice
// order.
func rankByMean(x [][]float64) []int {
	order := allIndices(len(x))
	slices.SortStableFunc(order, func(a, b int) int {
		ma, mb := meanOf(x[a]), meanOf(x[b])
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	r := make([]int, len(x))
	for pos, i := range order {
		r[i] = pos + 1
	}
	return r
}

// meanOf is the plain left-to-right mean of x (0 for none), the order in
// which the evidence-group ranks have always been computed.
func meanOf(x []float64) float64 {
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	return sum / float64(max(len(x), 1))
}

func sortFloats(x []float64) { slices.Sort(x) }
