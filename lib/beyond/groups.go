package beyond

import (
	"slices"
	"sort"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/trec"
)

// EvidenceGroups groups each question's primary-gold chunks by the evidence
// they hold (paper §9: overlapping windows that share one evidence message
// count as separate gold). For every matched answer item (gold.Item
// IsAnswer), the chunks holding its message that are relevance 2 in qrels
// are joined into one group; groups sharing a chunk merge (union–find), so
// a group is a connected component of "holds the same answer message". A
// rel-2 chunk of qrels that no answer item reaches (qrels from another
// source than the evidence) is a group of its own. Groups list chunk IDs
// sorted; a question's groups are sorted by their first chunk ID.
func EvidenceGroups(items []gold.ItemResult, qrels trec.Qrels) map[string][][]string {
	parent := map[[2]string]string{} // (qid, chunk) → parent chunk
	var find func(q, c string) string
	find = func(q, c string) string {
		p, ok := parent[[2]string{q, c}]
		if !ok || p == c {
			parent[[2]string{q, c}] = c
			return c
		}
		root := find(q, p)
		parent[[2]string{q, c}] = root
		return root
	}
	union := func(q, a, b string) {
		ra, rb := find(q, a), find(q, b)
		if ra != rb {
			parent[[2]string{q, max(ra, rb)}] = min(ra, rb)
		}
	}
	for q, rels := range qrels {
		for c, rel := range rels {
			if rel == 2 {
				find(q, c)
			}
		}
	}
	for _, it := range items {
		if !it.Item.IsAnswer() {
			continue
		}
		var primary []string
		for _, c := range it.ChunkIDs {
			if qrels[it.QID][c] == 2 {
				primary = append(primary, c)
			}
		}
		for _, c := range primary[min(1, len(primary)):] {
			union(it.QID, primary[0], c)
		}
	}
	members := map[string]map[string][]string{}
	for key := range parent {
		q, c := key[0], key[1]
		root := find(q, c)
		if members[q] == nil {
			members[q] = map[string][]string{}
		}
		members[q][root] = append(members[q][root], c)
	}
	out := map[string][][]string{}
	for q, byRoot := range members {
		for _, g := range byRoot {
			sort.Strings(g)
			out[q] = append(out[q], g)
		}
		slices.SortFunc(out[q], func(a, b []string) int { return compareStrings(a[0], b[0]) })
	}
	return out
}

// GroupRecall is the share of groups with at least one chunk in the top k of
// ranked: |{g : g ∩ top_k ≠ ∅}| / |groups|; 0 when there are no groups.
func GroupRecall(groups [][]string, ranked []trec.Hit, k int) float64 {
	if len(groups) == 0 {
		return 0
	}
	top := map[string]bool{}
	for _, h := range ranked[:min(k, len(ranked))] {
		top[h.ChunkID] = true
	}
	hit := 0
	for _, g := range groups {
		if slices.ContainsFunc(g, func(c string) bool { return top[c] }) {
			hit++
		}
	}
	return float64(hit) / float64(len(groups))
}

// GroupScores returns GroupRecall@k of run for each question of qids, in
// order.
func GroupScores(groups map[string][][]string, run trec.Run, qids []string, k int) []float64 {
	out := make([]float64, len(qids))
	for i, q := range qids {
		out[i] = GroupRecall(groups[q], run[q], k)
	}
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sortFloats(x []float64) { slices.Sort(x) }
