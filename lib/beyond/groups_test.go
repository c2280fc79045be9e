package beyond_test

import (
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/gold"
	"github.com/linemem/linemem/lib/trec"
)

func TestGroupScores(t *testing.T) {
	groups := map[string][]gold.Group{
		"q1": {{QID: "q1", ChunkIDs: []string{"c1", "c2"}}, {QID: "q1", ChunkIDs: []string{"c5"}}},
		"q2": {{QID: "q2", ChunkIDs: []string{"c9"}}},
	}
	run := trec.Run{"q1": {{ChunkID: "c5"}}, "q2": {{ChunkID: "x"}, {ChunkID: "c9"}}}
	// q1: 1 of 2 groups in the top 5; q2: 1 of 1; q3: no groups, 0.
	want := []float64{1.0 / 2, 1.0 / 1, 0}
	if got := beyond.GroupScores(groups, run, []string{"q1", "q2", "q3"}, 5); !slices.Equal(got, want) {
		t.Errorf("GroupScores = %v, want %v", got, want)
	}
}
