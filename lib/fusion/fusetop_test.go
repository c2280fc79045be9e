package fusion_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/fusion"
	"github.com/linemem/linemem/lib/ranking"
)

// randomLists returns two component lists of n hits each over a pool of
// 2n chunk IDs, scores drawn from few values so that ties are common, and
// a repeated ID now and then.
func randomLists(r *rand.Rand, n int) (bm25, vec []ranking.Hit) {
	list := func() []ranking.Hit {
		out := make([]ranking.Hit, n)
		for i := range out {
			out[i] = ranking.Hit{ChunkID: fmt.Sprintf("c%04d", r.IntN(2*n)), Score: float64(r.IntN(7)) / 3}
		}
		slices.SortStableFunc(out, func(a, b ranking.Hit) int { return -cmpFloat(a.Score, b.Score) })
		return out
	}
	return list(), list()
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestFuseTopIsFuseCut: the selection FuseTop uses for small k gives the
// first k of the full fused ranking, ties included.
func TestFuseTopIsFuseCut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fusers := []fusion.Fuser{fusion.LinearMinMax{Beta: 0.45}, fusion.RRF{K: 60}, fusion.ZScore{Beta: 0.3}, fusion.LinearMinMax{Beta: 0}}
	for trial := range 50 {
		bm, vec := randomLists(r, 1+r.IntN(fusion.Depth+60))
		for _, f := range fusers {
			full := f.Fuse(bm, vec)
			for _, k := range []int{-1, 0, 1, 5, 10, 49, 200, len(full), len(full) + 1} {
				want := full
				if k > 0 && k < len(full) {
					want = full[:k]
				}
				if got := fusion.FuseTop(f, bm, vec, k); !slices.Equal(got, want) {
					t.Fatalf("trial %d, %s, k = %d: FuseTop differs from Fuse cut to k", trial, f.Name(), k)
				}
			}
		}
	}
}

// TestFuseTopEachIsFuseTop: sharing the union and normalisation between
// fusers changes no list, whatever the mix of fuser kinds.
func TestFuseTopEachIsFuseTop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var fusers []fusion.Fuser
	for _, beta := range fusion.BetaGrid() {
		fusers = append(fusers, fusion.LinearMinMax{Beta: beta})
	}
	fusers = append(fusers, fusion.RRF{K: 60}, fusion.RRF{K: 60}, fusion.RRF{K: 1}, fusion.ZScore{Beta: 0.5}, fusion.LinearMinMax{Beta: 0.5}, fusion.ZScore{Beta: 0.25})
	for trial := range 30 {
		bm, vec := randomLists(r, 1+r.IntN(fusion.Depth+60))
		for _, k := range []int{0, 5, 200} {
			got := fusion.FuseTopEach(fusers, bm, vec, k)
			for i, f := range fusers {
				if want := fusion.FuseTop(f, bm, vec, k); !slices.Equal(got[i], want) {
					t.Fatalf("trial %d, k = %d, %s: FuseTopEach differs from FuseTop", trial, k, f.Name())
				}
			}
		}
	}
	if got := fusion.FuseTopEach(fusers, nil, nil, 5); len(got) != len(fusers) || len(got[0]) != 0 {
		t.Errorf("empty lists: %d lists, first of length %d; want %d empty lists", len(got), len(got[0]), len(fusers))
	}
}

func BenchmarkFuseTopEach(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	bm, vec := randomLists(r, fusion.Depth)
	var fusers []fusion.Fuser
	for _, beta := range fusion.BetaGrid() {
		fusers = append(fusers, fusion.LinearMinMax{Beta: beta})
	}
	b.Run("each", func(b *testing.B) {
		for b.Loop() {
			fusion.FuseTopEach(fusers, bm, vec, 5)
		}
	})
	b.Run("one by one", func(b *testing.B) {
		for b.Loop() {
			for _, f := range fusers {
				fusion.FuseTop(f, bm, vec, fusion.Depth)
			}
		}
	})
}
