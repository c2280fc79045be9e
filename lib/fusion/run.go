package fusion

import "github.com/linemem/linemem/lib/ranking"

// FuseTop fuses one question's two component rankings with f and keeps the
// fused top k (every fused candidate when k ≤ 0). It is the one place where a
// fused ranking is cut: a hybrid retriever's search, a weight sweep and a
// comparison of fusion rules all go through it, so their rankings agree.
// For this package's fusers only the top k are ordered (a selection when k
// is small); the list is the same as f.Fuse's cut to k.
func FuseTop(f Fuser, bm25, vec []ranking.Hit, k int) []ranking.Hit {
	if f, ok := f.(mixing); ok {
		m := f.mixer()
		return fuseTop(m, candidatesOf(m, bm25, vec), k)
	}
	fused := f.Fuse(bm25, vec)
	if k > 0 && len(fused) > k {
		return fused[:k]
	}
	return fused
}

// FuseTopEach returns FuseTop(fs[i], bm25, vec, k) for every fuser of fs, in
// order. Consecutive fusers that normalise alike (LinearMinMax at any β,
// ZScore at any β, RRF with one K) share one union of the candidates and one
// normalisation of each list, so a weight sweep pays for them once per
// question rather than once per weight.
func FuseTopEach(fs []Fuser, bm25, vec []ranking.Hit, k int) [][]ranking.Hit {
	out := make([][]ranking.Hit, len(fs))
	var c candidates
	var norm mixer
	fresh := true
	for i, f := range fs {
		mf, ok := f.(mixing)
		if !ok {
			out[i] = FuseTop(f, bm25, vec, k)
			fresh = true
			continue
		}
		m := mf.mixer()
		if fresh || m.normaliser() != norm {
			c, norm, fresh = candidatesOf(m, bm25, vec), m.normaliser(), false
		}
		out[i] = fuseTop(m, c, k)
	}
	return out
}

// FuseRuns applies FuseTop to every question of two component runs. The
// questions are those of bm25; a question missing from vec is fused with an
// empty list.
func FuseRuns(f Fuser, bm25, vec ranking.Run, k int) ranking.Run {
	out := make(ranking.Run, len(bm25))
	for qid, hits := range bm25 {
		out[qid] = FuseTop(f, hits, vec[qid], k)
	}
	return out
}
