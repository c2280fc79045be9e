package lsa_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/provider/lsa"
)

// memStates is an in-memory lsa.StateStore.
type memStates map[string][]byte

func (m memStates) State(_ context.Context, p, model string) ([]byte, bool, error) {
	b, ok := m[p+"/"+model]
	return b, ok, nil
}

func (m memStates) PutState(_ context.Context, p, model string, state []byte) error {
	m[p+"/"+model] = state
	return nil
}

// TestFitFromOneChunk: with the dimension left unset, a corpus of n texts
// and V vocabulary terms fits with k = min(DefaultDimension, n, V), the k is
// in the model name, and on fewer than DefaultDimension texts words seen once
// (df = 1) stay in the vocabulary (-m1).
func TestFitFromOneChunk(t *testing.T) {
	texts, _ := corpus()
	for _, n := range []int{1, 2, 16, len(texts)} {
		m, err := lsa.Fit(texts[:n], lsa.Options{})
		if err != nil {
			t.Fatalf("%d texts: %v", n, err)
		}
		want := min(lsa.DefaultDimension, n, len(m.Terms()))
		if m.Dimension() != want || !strings.Contains(m.Model(), fmt.Sprintf("-d%d-", want)) || !strings.HasSuffix(m.Model(), "-m1") {
			t.Errorf("%d texts: model %s of dimension %d, want d%d and -m1", n, m.Model(), m.Dimension(), want)
		}
		if o, _ := lsa.Resolve(texts[:n], lsa.Options{}); lsa.ModelName(o) != m.Model() {
			t.Errorf("%d texts: Resolve names %s, Fit %s", n, lsa.ModelName(o), m.Model())
		}
	}
	if _, err := lsa.Fit([]string{"🙂"}, lsa.Options{}); err == nil || !strings.Contains(err.Error(), "no char-bigram term") {
		t.Errorf("a text without terms: err = %v, want one saying there is nothing to fit", err)
	}
}

// TestRareWordsReachTheirChunk is issue 11's all-zero query: a question whose
// words each occur in one chunk only must still find that chunk.
func TestRareWordsReachTheirChunk(t *testing.T) {
	texts, _ := corpus()
	m, err := lsa.Fit(texts, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := m.Vector("パンケーキ") // occurs in texts[7] only
	best, bestScore := -1, 0.0
	for i, text := range texts {
		if s := dot(q, m.Vector(text)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best != 7 {
		t.Errorf("best match for a df = 1 word is text %d (%.3f), want 7", best, bestScore)
	}
}

func TestPrepareFitsOnceThenLoads(t *testing.T) {
	texts, _ := corpus()
	ctx := context.Background()
	states := memStates{}
	first, err := lsa.Prepare(ctx, states, texts, lsa.Options{})
	if err != nil || !first.Fresh {
		t.Fatalf("first Prepare: fresh %v, err %v; want a fresh fit", first.Fresh, err)
	}
	if len(states) != 0 {
		t.Fatal("Prepare stored the model before Save")
	}
	if err := first.Save(ctx, states); err != nil {
		t.Fatal(err)
	}
	again, err := lsa.Prepare(ctx, states, texts, lsa.Options{})
	if err != nil || again.Fresh || again.Params() != first.Params() {
		t.Fatalf("second Prepare: fresh %v, params equal %v, err %v; want the stored model", again.Fresh, again.Params() == first.Params(), err)
	}
	loaded, found, err := lsa.Load(ctx, states, first.Model.Model())
	if err != nil || !found || loaded.Params() != first.Params() {
		t.Errorf("Load(%s): found %v, err %v", first.Model.Model(), found, err)
	}
	if _, found, _ := lsa.Load(ctx, states, "lsa-none"); found {
		t.Error("Load of an unknown name found a model")
	}
}
