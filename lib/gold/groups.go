package gold

import (
	"slices"
	"strings"

	"github.com/linemem/linemem/lib/ranking"
)

// Group is one piece of a question's evidence as a ranking meets it: the
// relevance-2 chunks that hold the same answer evidence (see Groups).
type Group struct {
	QID        string   `json:"qid"`
	ChunkIDs   []string `json:"chunk_ids"`   // sorted
	MessageIDs []string `json:"message_ids"` // the answer messages that join them, sorted; empty for a chunk no answer item reaches
}

// Groups is the one definition of evidence groups (paper §9: overlapping
// windows that hold one evidence message count as separate gold chunks). For
// each question, the nodes are its relevance-2 chunks in rel (qrels built
// from the evidence, or one annotator's labels); every matched answer item
// (Item.IsAnswer) joins the relevance-2 chunks that hold its message, and
// groups sharing a chunk merge (union–find), so a group is a connected
// component of "holds the same answer message". A relevance-2 chunk that no
// answer item reaches (judged relevant beyond the evidence) is a group of its
// own. Support items and chunks below relevance 2 join nothing. A question's
// groups are sorted by their first chunk ID; questions without a relevance-2
// chunk are absent.
func Groups(items []ItemResult, rel ranking.Qrels) map[string][]Group {
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
	for q, rels := range rel {
		for c, r := range rels {
			if r == 2 {
				find(q, c)
			}
		}
	}
	type joined struct{ qid, chunk, message string } // a message joined at chunk
	var messages []joined
	for _, it := range items {
		if !it.Item.IsAnswer() {
			continue
		}
		var primary []string
		for _, c := range it.ChunkIDs {
			if rel[it.QID][c] == 2 {
				primary = append(primary, c)
			}
		}
		if len(primary) == 0 {
			continue
		}
		for _, c := range primary[1:] {
			union(it.QID, primary[0], c)
		}
		if it.MessageID != "" {
			messages = append(messages, joined{it.QID, primary[0], it.MessageID})
		}
	}
	byRoot := map[[2]string]*Group{}
	for key := range parent {
		q, c := key[0], key[1]
		root := [2]string{q, find(q, c)}
		g := byRoot[root]
		if g == nil {
			g = &Group{QID: q, MessageIDs: []string{}}
			byRoot[root] = g
		}
		g.ChunkIDs = append(g.ChunkIDs, c)
	}
	for _, m := range messages {
		g := byRoot[[2]string{m.qid, find(m.qid, m.chunk)}]
		if !slices.Contains(g.MessageIDs, m.message) {
			g.MessageIDs = append(g.MessageIDs, m.message)
		}
	}
	out := map[string][]Group{}
	for _, g := range byRoot {
		slices.Sort(g.ChunkIDs)
		slices.Sort(g.MessageIDs)
		out[g.QID] = append(out[g.QID], *g)
	}
	for q := range out {
		slices.SortFunc(out[q], func(a, b Group) int { return strings.Compare(a.ChunkIDs[0], b.ChunkIDs[0]) })
	}
	return out
}

// GroupRecall is the share of groups with at least one chunk among the first
// k of ranked: |{g : g ∩ top_k ≠ ∅}| / |groups|; 0 when there are no groups.
// k larger than ranked uses all of it.
func GroupRecall(groups []Group, ranked []ranking.Hit, k int) float64 {
	if len(groups) == 0 {
		return 0
	}
	top := map[string]bool{}
	for _, h := range ranked[:max(0, min(k, len(ranked)))] {
		top[h.ChunkID] = true
	}
	hit := 0
	for _, g := range groups {
		if slices.ContainsFunc(g.ChunkIDs, func(c string) bool { return top[c] }) {
			hit++
		}
	}
	return float64(hit) / float64(len(groups))
}
