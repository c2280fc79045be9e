package diversify_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/diversify"
	"github.com/linemem/linemem/lib/ranking"
)

func ids(hits []ranking.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ChunkID
	}
	return out
}

// groups puts a and b in chat x, c and d in chat y; e is in no group.
var groups = diversify.Group{"a": "x", "b": "x", "c": "y", "d": "y"}

func TestMMR(t *testing.T) {
	// rel = (s − 0)/(1 − 0): a 1, b 0.9, c 0.5, d 0.
	base := []ranking.Hit{hit("a", 1), hit("b", 0.9), hit("c", 0.5), hit("d", 0)}
	cases := []struct {
		name   string
		hits   []ranking.Hit
		lambda float64
		want   []string
	}{
		{"empty", nil, 0.5, []string{}},
		{"lambda 1 keeps the base order", base, 1, []string{"a", "b", "c", "d"}},
		// a .8; then b .72−.2 = .52 beats c .4; then c .4 beats d 0.
		{"lambda 0.8 too small a gap to overtake", base, 0.8, []string{"a", "b", "c", "d"}},
		// a .5; then c .25 beats b .45−.5 = −.05 and d 0; then b −.05 beats d 0−.5.
		{"lambda 0.5 promotes the other chat", base, 0.5, []string{"a", "c", "b", "d"}},
		// every value 0 or −1: uncovered first, each step by chunk ID desc.
		{"lambda 0 ignores scores", base, 0, []string{"d", "b", "c", "a"}},
		// equal scores: rel 0 for all; d (y) first by ID desc, then b (x), then c, a.
		{"equal scores", []ranking.Hit{hit("a", 3), hit("b", 3), hit("c", 3), hit("d", 3)}, 0.9, []string{"d", "b", "c", "a"}},
		{"repeated ID keeps its first entry", []ranking.Hit{hit("a", 1), hit("c", 0.5), hit("a", 0.1), hit("d", 0)}, 1, []string{"a", "c", "d"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := diversify.MMR(c.hits, c.lambda, groups)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), c.want) {
				t.Errorf("MMR order = %q, want %q", ids(got), c.want)
			}
		})
	}
}

func TestMMRChunkInNoGroup(t *testing.T) {
	// e and f are in no group, so each is its own. a .5; then e .25, c (y)
	// .25, f 0, b (x) .45 − .5: e and c tie and e > c by ID; then c .25;
	// then f 0 beats b −.05.
	got, err := diversify.MMR([]ranking.Hit{hit("a", 1), hit("b", 0.9), hit("c", 0.5), hit("e", 0.5), hit("f", 0)}, 0.5, groups)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "e", "c", "f", "b"}; !slices.Equal(ids(got), want) {
		t.Errorf("MMR order = %q, want %q", ids(got), want)
	}
}

func TestMMRRankScores(t *testing.T) {
	got, err := diversify.MMR([]ranking.Hit{hit("a", 1), hit("b", 0.9), hit("c", 0.5), hit("d", 0)}, 0.5, groups)
	if err != nil {
		t.Fatal(err)
	}
	want := []ranking.Hit{hit("a", 1), hit("c", 0.75), hit("b", 0.5), hit("d", 0.25)} // (n − i)/n, n = 4
	if !slices.Equal(got, want) {
		t.Errorf("MMR = %v, want %v", got, want)
	}
}

func TestMMRDoesNotModifyInput(t *testing.T) {
	in := []ranking.Hit{hit("a", 1), hit("b", 0.9), hit("c", 0.5)}
	keep := slices.Clone(in)
	if _, err := diversify.MMR(in, 0.5, groups); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in, keep) {
		t.Errorf("input changed to %v", in)
	}
}

func TestMMRErrors(t *testing.T) {
	for _, lambda := range []float64{-0.01, 1.01, nanValue()} {
		t.Run(fmt.Sprint(lambda), func(t *testing.T) {
			_, err := diversify.MMR([]ranking.Hit{hit("a", 1)}, lambda, groups)
			if err == nil || !strings.Contains(err.Error(), "want a value in [0, 1]") {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func nanValue() float64 {
	zero := 0.0
	return zero / zero
}

func TestBySource(t *testing.T) {
	g := diversify.BySource([]chat.Chunk{{ID: "c1", Source: "family.json"}, {ID: "c2", Source: "club.json"}})
	if len(g) != 2 || g["c1"] != "family.json" || g["c2"] != "club.json" {
		t.Errorf("BySource = %v", g)
	}
}

func ExampleMMR() {
	hits := []ranking.Hit{{ChunkID: "a", Score: 9}, {ChunkID: "b", Score: 8}, {ChunkID: "c", Score: 5}}
	g := diversify.Group{"a": "family.json", "b": "family.json", "c": "club.json"}
	out, _ := diversify.MMR(hits, 0.5, g)
	for _, h := range out {
		fmt.Println(h.ChunkID, g[h.ChunkID])
	}
	// Output:
	// a family.json
	// c club.json
	// b family.json
}

func hit(id string, score float64) ranking.Hit { return ranking.Hit{ChunkID: id, Score: score} }
