package fusion

import "github.com/linemem/linemem/lib/ranking"

// FuseTop fuses one question's two component rankings with f and keeps the
// fused top k (every fused candidate when k ≤ 0). It is the one place where a
// fused ranking is cut: a hybrid retriever's search, a weight sweep and a
// comparison of fusion rules all go through it, so their rankings agree.
func FuseTop(f Fuser, bm25, vec []ranking.Hit, k int) []ranking.Hit {
	fused := f.Fuse(bm25, vec)
	if k > 0 && len(fused) > k {
		return fused[:k]
	}
	return fused
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
