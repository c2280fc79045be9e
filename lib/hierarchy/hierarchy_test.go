package hierarchy_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/hierarchy"
	"github.com/linemem/linemem/lib/ranking"
	"github.com/linemem/linemem/lib/tokenize"
)

func build(t *testing.T) *hierarchy.Index {
	t.Helper()
	tok, err := tokenize.New(tokenize.Default)
	if err != nil {
		t.Fatal(err)
	}
	chunks := []chat.Chunk{
		{ID: "c4", Source: "club.json", StartAt: "2024-02-01T10:00:00"},
		{ID: "c2", Source: "club.json", StartAt: "2024-01-20T10:00:00"},
		{ID: "c3", Source: "family.json", StartAt: "2024-01-10T10:00:00"},
		{ID: "c1", Source: "club.json", StartAt: "2024-01-05T10:00:00"},
		{ID: "c0", Source: "club.json", StartAt: "2024-01-20T10:00:00"},
	}
	sums := map[string]string{"c1": "京都へ旅行の計画", "c2": "予算の相談", "c3": "京都の話", "c4": "試験勉強"}
	return hierarchy.Build(chunks, sums, tok)
}

func TestBuildUnits(t *testing.T) {
	ix := build(t)
	type unit struct {
		id, month, text string
		members         []string
	}
	want := []unit{
		// members by StartAt, then ID: c1 (01-05), c0 and c2 (01-20); c0 has no summary.
		{"club.json|2024-01", "2024-01", "club\n京都へ旅行の計画\n\n予算の相談", []string{"c1", "c0", "c2"}},
		{"club.json|2024-02", "2024-02", "club\n試験勉強", []string{"c4"}},
		{"family.json|2024-01", "2024-01", "family\n京都の話", []string{"c3"}},
	}
	if len(ix.Units) != len(want) {
		t.Fatalf("%d units, want %d: %+v", len(ix.Units), len(want), ix.Units)
	}
	for i, w := range want {
		u := ix.Units[i]
		if u.ID != w.id || u.Month != w.month || u.Text != w.text || !slices.Equal(u.Members, w.members) {
			t.Errorf("unit %d = %+v, want %+v", i, u, w)
		}
		for _, m := range w.members {
			if got, ok := ix.UnitOf(m); !ok || got != w.id {
				t.Errorf("UnitOf(%s) = %q, %v; want %q", m, got, ok, w.id)
			}
		}
	}
	if _, ok := ix.UnitOf("c9"); ok {
		t.Error("UnitOf(c9) found a unit for an unknown chunk")
	}
}

func TestSearchUnits(t *testing.T) {
	ix := build(t)
	// 京都 occurs once in both January units; the family unit is shorter, so
	// its length norm is smaller and its score higher.
	got := ix.Search("京都", 0)
	var units []string
	for _, h := range got {
		units = append(units, h.ChunkID)
	}
	if want := []string{"family.json|2024-01", "club.json|2024-01"}; !slices.Equal(units, want) {
		t.Errorf("Search = %q, want %q", units, want)
	}
	if len(ix.Search("ひらがな", 0)) != 0 {
		t.Error("a query without tokens matched units")
	}
}

func TestFuse(t *testing.T) {
	ix := build(t)
	// ŝ_base: c4 (1−0)/(1−0) = 1, c3 .5, c1 0.
	base := []ranking.Hit{hit("c4", 1), hit("c3", 0.5), hit("c1", 0)}
	// ŝ_unit: club-01 1, family-01 0; club-02 (c4's unit) absent → 0.
	units := []ranking.Hit{hit("club.json|2024-01", 2), hit("family.json|2024-01", 1)}
	cases := []struct {
		name  string
		base  []ranking.Hit
		units []ranking.Hit
		gamma float64
		want  []ranking.Hit
	}{
		{"empty base", nil, units, 0.5, []ranking.Hit{}},
		{"gamma 0 keeps the base", base, units, 0, []ranking.Hit{hit("c4", 1), hit("c3", 0.5), hit("c1", 0)}},
		// c4 .5·1 + .5·0 = .5, c1 .5·0 + .5·1 = .5 (tie: c4 > c1 by ID), c3 .25 + 0.
		{"gamma 0.5", base, units, 0.5, []ranking.Hit{hit("c4", 0.5), hit("c1", 0.5), hit("c3", 0.25)}},
		// only the unit counts: c1 1; c4 and c3 0, by ID desc.
		{"gamma 1", base, units, 1, []ranking.Hit{hit("c1", 1), hit("c4", 0), hit("c3", 0)}},
		// one unit: max = min, so every unit gets 0 and only the base counts.
		{"single unit normalises to 0", base, units[:1], 0.5, []ranking.Hit{hit("c4", 0.5), hit("c3", 0.25), hit("c1", 0)}},
		// the unknown chunk c9 is in no unit; the repeated c4 keeps its first entry.
		{"unknown and repeated chunks", []ranking.Hit{hit("c9", 2), hit("c4", 0), hit("c4", 5)}, units, 0.5, []ranking.Hit{hit("c9", 0.5), hit("c4", 0)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ix.Fuse(c.base, c.units, c.gamma)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("Fuse = %v, want %v", got, c.want)
			}
		})
	}
}

func TestFuseErrors(t *testing.T) {
	ix := build(t)
	for _, gamma := range []float64{-0.5, 1.5} {
		_, err := ix.Fuse([]ranking.Hit{hit("c1", 1)}, nil, gamma)
		if err == nil || !strings.Contains(err.Error(), "want a value in [0, 1]") {
			t.Errorf("γ = %v: err = %v", gamma, err)
		}
	}
}

func hit(id string, score float64) ranking.Hit { return ranking.Hit{ChunkID: id, Score: score} }
