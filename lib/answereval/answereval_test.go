package answereval_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/answereval"
	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/tokenize/tokenizetest"
	"github.com/linemem/linemem/lib/trec"
)

func cites(ids ...string) []answer.Citation {
	var out []answer.Citation
	for i, id := range ids {
		out = append(out, answer.Citation{N: i + 1, ChunkID: id})
	}
	return out
}

var (
	qrels = trec.Qrels{
		"q1": {"c1": 2, "c2": 1, "c3": 0},
		"q2": {"c4": 2, "c5": 2},
		"q3": {"c6": 2},
		"q4": {"c7": 1}, // no primary gold: excluded
	}
	items = []answereval.Item{
		{QID: "q1", Type: questions.NamedEntity, Reference: "a b c",
			Answer: answer.Answer{Text: "a b d [1][2]", Citations: cites("c1", "c2"), Chunks: []string{"c1", "c2", "c3"}}},
		{QID: "q2", Type: questions.Contextual, Reference: "x y",
			Answer: answer.Answer{Text: "x  y。[1]", Citations: cites("c3"), Chunks: []string{"c3", "c4"}}},
		{QID: "q3", Type: questions.Contextual,
			Answer: answer.Answer{Text: answer.AbstainPhrase, Abstained: true, Chunks: []string{"c9"}}},
		{QID: "q4", Type: questions.Contextual, Reference: "z",
			Answer: answer.Answer{Text: "z [1]", Citations: cites("c7"), Chunks: []string{"c7"}}},
	}
)

func TestScoreHandComputed(t *testing.T) {
	s := answereval.Score(items, qrels, tokenizetest.Fields{})
	if !slices.Equal(s.QIDs, []string{"q1", "q2", "q3"}) || !slices.Equal(s.Excluded, []string{"q4"}) {
		t.Fatalf("QIDs %v, excluded %v", s.QIDs, s.Excluded)
	}
	nan := math.NaN()
	want := map[string][]float64{
		// q1 cites c1 (rel 2), c2 (rel 1); q2 cites c3, unjudged for q2; q3 cites nothing.
		answereval.CitationPrecision: {2.0 / 2, 0.0 / 1, nan},
		answereval.CitationRecall:    {1.0 / 1, 0.0 / 2, 0},
		// q1: a b d vs a b c, m = 2, P = R = 2/3; q2: "x", "y。" vs x y, m = 1,
		// P = R = 1/2 (exact match still holds: punctuation is dropped); q3 has no reference.
		answereval.TokenF1:              {2 * (2.0 / 3) * (2.0 / 3) / (2.0/3 + 2.0/3), 2 * 0.5 * 0.5 / (0.5 + 0.5), nan},
		answereval.ExactMatch:           {0, 1, nan},
		answereval.Abstention:           {0, 0, 1},
		answereval.InReach:              {1, 1, 0},
		answereval.AbstentionOutOfReach: {nan, nan, 1},
		answereval.AbstentionInReach:    {0, 0, nan},
	}
	const tol = 1e-12 // same arithmetic, written differently
	for m, w := range want {
		got := s.Values[m]
		for i := range w {
			if math.IsNaN(w[i]) != math.IsNaN(got[i]) || !math.IsNaN(w[i]) && math.Abs(w[i]-got[i]) > tol {
				t.Errorf("%s[%s] = %v, want %v", m, s.QIDs[i], got[i], w[i])
			}
		}
	}

	groups := answereval.Summarize(s, questions.Types, 200, bootstrap.DefaultSeed, bootstrap.DefaultLevel)
	if len(groups) != 3 || groups[0].Name != answereval.AllTypes || groups[1].Name != questions.NamedEntity || groups[2].Name != questions.Contextual {
		t.Fatalf("groups = %+v (aggregate has no question and is left out)", groups)
	}
	all := groups[0].Metrics
	means := map[string]struct {
		n    int
		mean float64
	}{
		answereval.CitationPrecision:    {2, (1.0 + 0) / 2},
		answereval.CitationRecall:       {3, (1.0 + 0 + 0) / 3},
		answereval.TokenF1:              {2, (2.0/3 + 0.5) / 2},
		answereval.ExactMatch:           {2, (0 + 1.0) / 2},
		answereval.Abstention:           {3, 1.0 / 3},
		answereval.InReach:              {3, 2.0 / 3},
		answereval.AbstentionOutOfReach: {1, 1},
		answereval.AbstentionInReach:    {2, 0},
	}
	for m, w := range means {
		iv := all[m]
		if iv.N != w.n || math.Abs(iv.Mean-w.mean) > tol || iv.Lo > iv.Mean || iv.Hi < iv.Mean {
			t.Errorf("all %s = %+v, want n %d mean %v inside [lo, hi]", m, iv, w.n, w.mean)
		}
	}
	// The interval is the bootstrap's over the defined values.
	_, lo, hi := bootstrap.NewIndices(200, 3, bootstrap.DefaultSeed).MeanCI([]float64{1, 0, 0}, bootstrap.DefaultLevel)
	if iv := all[answereval.CitationRecall]; iv.Lo != lo || iv.Hi != hi {
		t.Errorf("citation_recall interval [%v, %v], want [%v, %v]", iv.Lo, iv.Hi, lo, hi)
	}
	if ne := groups[1]; ne.Questions != 1 || ne.Metrics[answereval.TokenF1].Mean != 2.0/3 || !math.IsNaN(ne.Metrics[answereval.AbstentionOutOfReach].Mean) {
		t.Errorf("named_entity = %+v", ne)
	}
	if ctx := groups[2]; ctx.Questions != 2 || ctx.Metrics[answereval.CitationPrecision].N != 1 {
		t.Errorf("contextual = %+v", ctx)
	}
}

func TestF1AndNormalize(t *testing.T) {
	cases := []struct {
		pred, ref []string
		want      float64
	}{
		{nil, []string{"a"}, 0},
		{[]string{"a"}, nil, 0},
		{[]string{"a", "a", "b"}, []string{"a", "b", "b"}, 2 * (2.0 / 3) * (2.0 / 3) / (4.0 / 3)}, // m = min(2,1) + min(1,2) = 2
		{[]string{"a"}, []string{"a", "b", "c", "d"}, 2 * 1 * 0.25 / 1.25},
	}
	for _, c := range cases {
		if got := answereval.F1(c.pred, c.ref); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("F1(%v, %v) = %v, want %v", c.pred, c.ref, got, c.want)
		}
	}
	if got := answereval.Normalize("『月影の ピアニスト』です。[2]"); got != "月影のピアニストです" {
		t.Errorf("Normalize = %q", got)
	}
	if answereval.Normalize("ＡＢＣ 駅") != answereval.Normalize("abc駅") {
		t.Error("Normalize is not width- and case-insensitive")
	}
}

type fakeSearcher struct{ ks []int }

func (f *fakeSearcher) Search(_ context.Context, q memory.Query) (memory.Response, error) {
	f.ks = append(f.ks, q.K)
	return memory.Response{Retriever: "raw_text_bm25", Results: []memory.Result{{ChunkID: "c-" + q.Text, Messages: []memory.Message{{ID: "m1", Text: q.Text + "です"}}}}}, nil
}

func TestAnswerRetrievesThenAnswers(t *testing.T) {
	qs := []questions.Question{{QID: "q1", Question: "駅", Type: questions.NamedEntity, Answer: "薬院駅"}}
	f := &fakeSearcher{}
	got, err := answereval.Answer(context.Background(), f, answer.NewExtractive(tokenizetest.Fields{}), qs, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Reference != "薬院駅" || got[0].Answer.Retriever != "raw_text_bm25" || !slices.Equal(f.ks, []int{3}) {
		t.Errorf("items = %+v, k = %v", got, f.ks)
	}
}
