package beyond_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/beyond"
	"github.com/linemem/linemem/lib/bootstrap"
)

func TestFoldAssignment(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{10, 5}, {11, 5}, {100, 5}, {3, 3}, {7, 1}} {
		fold := beyond.FoldAssignment(tc.n, tc.k, 12345)
		perm := rand.New(rand.NewPCG(12345, 12345)).Perm(tc.n)
		sizes := make([]int, tc.k)
		for i, p := range perm {
			if fold[p] != i%tc.k {
				t.Fatalf("n=%d k=%d: position %d in fold %d, want %d (perm[%d] → %d mod k)", tc.n, tc.k, p, fold[p], i%tc.k, i, i)
			}
		}
		for _, f := range fold {
			sizes[f]++
		}
		if slices.Max(sizes)-slices.Min(sizes) > 1 {
			t.Errorf("n=%d k=%d: fold sizes %v differ by more than one", tc.n, tc.k, sizes)
		}
		if again := beyond.FoldAssignment(tc.n, tc.k, 12345); !slices.Equal(again, fold) {
			t.Errorf("n=%d k=%d: not deterministic", tc.n, tc.k)
		}
	}
}

func TestSelectFirstMax(t *testing.T) {
	cs := []beyond.Candidate{{Name: "a", Scores: []float64{1, 0, 0}}, {Name: "b", Scores: []float64{0, 1, 0}}, {Name: "c", Scores: []float64{1, 1, 0}}}
	for _, tc := range []struct {
		idx  []int
		want string
	}{{[]int{0}, "a"}, {[]int{1}, "b"}, {[]int{0, 1}, "c"}, {[]int{2}, "a"}, {[]int{1, 1, 0}, "c"}} {
		if got := cs[beyond.SelectFirstMax(cs, tc.idx)].Name; got != tc.want {
			t.Errorf("positions %v: %s, want %s (first maximum)", tc.idx, got, tc.want)
		}
	}
}

func TestNestedCV(t *testing.T) {
	// h1 is right on the first half of the questions, h2 on the second;
	// the single retriever s is right on every third question.
	n, k := 6, 3
	h1 := beyond.Candidate{Name: "h1", Scores: []float64{1, 1, 1, 0, 0, 0}}
	h2 := beyond.Candidate{Name: "h2", Scores: []float64{0, 0, 0, 1, 1, 1}}
	s := beyond.Candidate{Name: "s", Scores: []float64{1, 0, 0, 1, 0, 0}}
	cv, err := beyond.NestedCV([]beyond.Candidate{h1, h2}, []beyond.Candidate{s}, k, 7)
	if err != nil {
		t.Fatal(err)
	}
	fold := beyond.FoldAssignment(n, k, 7)
	for f := range k {
		var train []int
		for i, fi := range fold {
			if fi != f {
				train = append(train, i)
			}
		}
		want := []beyond.Candidate{h1, h2}[beyond.SelectFirstMax([]beyond.Candidate{h1, h2}, train)]
		if cv.Hybrid[f] != want.Name {
			t.Errorf("fold %d: selected %s, want %s", f, cv.Hybrid[f], want.Name)
		}
		for i, fi := range fold {
			if fi == f && (cv.HybridOOF[i] != want.Scores[i] || cv.SingleOOF[i] != s.Scores[i]) {
				t.Errorf("question %d: out-of-fold %v/%v, want %v/%v", i, cv.HybridOOF[i], cv.SingleOOF[i], want.Scores[i], s.Scores[i])
			}
		}
	}
	if _, err := beyond.NestedCV([]beyond.Candidate{h1}, []beyond.Candidate{s}, 1, 7); err == nil {
		t.Error("k = 1: no error")
	}
}

func TestSelectionAware(t *testing.T) {
	h := []beyond.Candidate{{Name: "h", Scores: []float64{1, 1, 0, 1}}}
	s := []beyond.Candidate{{Name: "s", Scores: []float64{0, 1, 0, 0}}}
	ix := bootstrap.NewIndices(50, 4, 3)
	sb := beyond.SelectionAware(h, s, ix)
	d := []float64{1, 0, 0, 1}
	means := ix.Means(d)
	if !slices.Equal(sb.InResample, means) || sb.Hybrid["h"] != 50 {
		t.Errorf("one candidate each: in-resample gains %v, want the resample means of h − s %v", sb.InResample, means)
	}
	for _, g := range sb.OutOfBag {
		if g < 0 || g > 1 {
			t.Errorf("out-of-bag gain %v outside [0, 1]", g)
		}
	}
}
