package gold_test

import (
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/ranking"
)

func TestGroups(t *testing.T) {
	item := func(q, role, message string, chunks ...string) gold.ItemResult {
		return gold.ItemResult{QID: q, Item: gold.Item{Role: role}, MessageID: message, ChunkIDs: chunks}
	}
	tests := []struct {
		name  string
		items []gold.ItemResult
		rel   ranking.Qrels
		want  map[string][]gold.Group
	}{
		{
			"overlaps merge, support and relevance 1 join nothing",
			[]gold.ItemResult{
				item("q1", "answer", "m1", "c1", "c2"),  // c1, c2 overlap on one message
				item("q1", "", "m2", "c2", "c3"),        // c3 joins through c2 (an empty role is an answer)
				item("q1", "support", "m3", "c3", "c5"), // support items never join
				item("q1", "answer", "m4", "c4"),        // c4 is relevance 1: no group
			},
			ranking.Qrels{"q1": {"c1": 2, "c2": 2, "c3": 2, "c4": 1, "c5": 2}, "q2": {"c9": 2}},
			map[string][]gold.Group{
				"q1": {{QID: "q1", ChunkIDs: []string{"c1", "c2", "c3"}, MessageIDs: []string{"m1", "m2"}}, {QID: "q1", ChunkIDs: []string{"c5"}, MessageIDs: []string{}}},
				"q2": {{QID: "q2", ChunkIDs: []string{"c9"}, MessageIDs: []string{}}}, // relevant beyond the evidence: a group of its own
			},
		},
		{
			"two messages in one window are one group; a message outside the relevant chunks names none",
			[]gold.ItemResult{
				item("q", "answer", "m2", "b"),
				item("q", "answer", "m1", "a", "b"),
				item("q", "answer", "m3", "x"), // x is not relevant
				item("q", "answer", "", "a"),   // unmatched: no message to name
			},
			ranking.Qrels{"q": {"a": 2, "b": 2, "x": 0}},
			map[string][]gold.Group{"q": {{QID: "q", ChunkIDs: []string{"a", "b"}, MessageIDs: []string{"m1", "m2"}}}},
		},
		{"no relevant chunk", []gold.ItemResult{item("q", "answer", "m", "a")}, ranking.Qrels{"q": {"a": 1}}, map[string][]gold.Group{}},
		{"empty", nil, nil, map[string][]gold.Group{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := gold.Groups(tc.items, tc.rel); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("groups %+v,\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestGroupRecall(t *testing.T) {
	groups := []gold.Group{{ChunkIDs: []string{"c1", "c2", "c3"}}, {ChunkIDs: []string{"c5"}}}
	hits := func(ids ...string) []ranking.Hit {
		var h []ranking.Hit
		for _, id := range ids {
			h = append(h, ranking.Hit{ChunkID: id})
		}
		return h
	}
	tests := []struct {
		name   string
		groups []gold.Group
		ranked []ranking.Hit
		k      int
		want   float64
	}{
		{"two chunks of one group count once", groups, hits("c2", "c3", "c5"), 2, 1.0 / 2},
		{"k past the ranking uses all of it", groups, hits("c2", "x", "c5"), 5, 2.0 / 2},
		{"k = 0", groups, hits("c2"), 0, 0.0 / 2},
		{"no groups", nil, hits("c1"), 5, 0},
		{"empty ranking", groups, nil, 5, 0.0 / 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := gold.GroupRecall(tc.groups, tc.ranked, tc.k); got != tc.want {
				t.Errorf("GroupRecall@%d = %v, want %v", tc.k, got, tc.want)
			}
		})
	}
}
