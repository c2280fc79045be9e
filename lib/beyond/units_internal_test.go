package beyond

import (
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/datasets"
	"github.com/linemem/linemem/lib/ranking"
)

// A hand-worked example of LoCoMo's retrieval recall at the three units,
// computed as snap-research/locomo task_eval/evaluation.py does: the share of
// the evidence list (as written, repeats counted) among the retrieved IDs;
// sessions compared by number; no evidence scores 1.
func TestLoCoMoRecallAtUnits(t *testing.T) {
	// Session 1: D1:1 D1:2 D1:3; session 2: D2:1 D2:2 (message IDs m11 … m22).
	keys := map[string]string{"m11": "D1:1", "m12": "D1:2", "m13": "D1:3", "m21": "D2:1", "m22": "D2:2"}
	doc := func(id string, msgs ...string) chat.Chunk { return chat.Chunk{ID: id, MessageIDs: msgs} }
	ranked := func(ids ...string) []ranking.Hit {
		hits := make([]ranking.Hit, len(ids))
		for i, id := range ids {
			hits[i] = ranking.Hit{ChunkID: id, Score: float64(len(ids) - i)}
		}
		return hits
	}
	q := datasets.NativeQuestion{QID: "q", Evidence: []string{"D1:2", "D2:2", "D2:2"}}
	for _, tc := range []struct {
		name   string
		unit   string
		docs   []chat.Chunk
		ranked []ranking.Hit
		q      datasets.NativeQuestion
		k      int
		want   float64
	}{
		// turn ranking D2:2, D1:1, D1:2, D2:1, D1:3
		{"turn k=1: D2:2 twice of 3", UnitTurn, turns(), ranked("t22", "t11", "t12", "t21", "t13"), q, 1, 2.0 / 3},
		{"turn k=2: still 2 of 3", UnitTurn, turns(), ranked("t22", "t11", "t12", "t21", "t13"), q, 2, 2.0 / 3},
		{"turn k=3: all 3", UnitTurn, turns(), ranked("t22", "t11", "t12", "t21", "t13"), q, 3, 3.0 / 3},
		{"turn: a malformed ID counts but never matches", UnitTurn, turns(), ranked("t12", "t22"),
			datasets.NativeQuestion{QID: "q", Evidence: []string{"D1:2", "D:2:2"}}, 50, 1.0 / 2},
		{"turn: no evidence scores 1", UnitTurn, turns(), ranked("t11"), datasets.NativeQuestion{QID: "q"}, 1, 1},
		// session ranking S2, S1; evidence sessions 1, 2, 2
		{"session k=1: session 2 holds two of three", UnitSession, []chat.Chunk{doc("s1", "m11", "m12", "m13"), doc("s2", "m21", "m22")}, ranked("s2", "s1"), q, 1, 2.0 / 3},
		{"session k=2: all", UnitSession, []chat.Chunk{doc("s1", "m11", "m12", "m13"), doc("s2", "m21", "m22")}, ranked("s2", "s1"), q, 2, 1},
		// chunk ranking {D1:3}, {D2:1 D2:2}, {D1:1 D1:2}
		{"chunk k=1: none", UnitChunk, []chat.Chunk{doc("c0", "m11", "m12"), doc("c1", "m13"), doc("c2", "m21", "m22")}, ranked("c1", "c2", "c0"), q, 1, 0},
		{"chunk k=2: D2:2 twice", UnitChunk, []chat.Chunk{doc("c0", "m11", "m12"), doc("c1", "m13"), doc("c2", "m21", "m22")}, ranked("c1", "c2", "c0"), q, 2, 2.0 / 3},
		{"chunk k=3: all", UnitChunk, []chat.Chunk{doc("c0", "m11", "m12"), doc("c1", "m13"), doc("c2", "m21", "m22")}, ranked("c1", "c2", "c0"), q, 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			units := unitIDs(tc.docs, tc.unit, keys)
			if got := locomoAt(tc.ranked, units, nativeEvidence(tc.q, tc.unit), tc.k); got != tc.want {
				t.Errorf("recall@%d = %v, want %v", tc.k, got, tc.want)
			}
		})
	}
}

// turns is one document per message of the example conversation.
func turns() []chat.Chunk {
	var out []chat.Chunk
	for _, m := range []string{"11", "12", "13", "21", "22"} {
		out = append(out, chat.Chunk{ID: "t" + m, MessageIDs: []string{"m" + m}})
	}
	return out
}

// unitRun names turns by their dialog ID and sessions "S<n>", as LoCoMo's
// code writes retrieved context.
func TestUnitRun(t *testing.T) {
	keys := map[string]string{"m11": "D1:1", "m21": "D2:1"}
	docs := []chat.Chunk{{ID: "a", MessageIDs: []string{"m11"}}, {ID: "b", MessageIDs: []string{"m21"}}}
	run := ranking.Run{"q": {{ChunkID: "b", Score: 2}, {ChunkID: "a", Score: 1}}}
	for unit, want := range map[string][2]string{UnitTurn: {"D2:1", "D1:1"}, UnitSession: {"S2", "S1"}} {
		got := unitRun(run, unitIDs(docs, unit, keys), unit)["q"]
		if len(got) != 2 || got[0].ChunkID != want[0] || got[1].ChunkID != want[1] {
			t.Errorf("%s: %v, want %v", unit, got, want)
		}
	}
}

// Selection on the other corpora picks by the mean over the others only.
func TestOtherCorpora(t *testing.T) {
	sel := func(h0, h1, s0 float64) Selection {
		return Selection{
			Configs: []Candidate{{Name: "h0", Scores: []float64{h0}}, {Name: "h1", Scores: []float64{h1}}},
			Singles: []Candidate{{Name: "s0", Scores: []float64{s0}}},
		}
	}
	// corpus 0 prefers h0 but the others prefer h1 (mean of 0.9, 0.8 over h0's 0.1, 0.2)
	rs := []Selection{sel(1, 0, 0.5), sel(0.1, 0.9, 0.5), sel(0.2, 0.8, 0.5)}
	hybrid, single, names := OtherCorpora(rs)
	if names[0] != "h1" || hybrid[0][0] != 0 || single[0][0] != 0.5 {
		t.Errorf("corpus 0: %s %v %v, want h1 [0] [0.5]", names[0], hybrid[0], single[0])
	}
	// corpus 1: others 0 and 2 give h0 (1 + 0.2) against h1 (0 + 0.8)
	if names[1] != "h0" {
		t.Errorf("corpus 1: %s, want h0", names[1])
	}
	if h, s, n := OtherCorpora(rs[:1]); h != nil || s != nil || n != nil {
		t.Error("one corpus has no other to select on")
	}
}
