package bootstrap_test

import (
	"testing"

	"github.com/linemem/linemem/lib/bootstrap"
	"github.com/linemem/linemem/lib/metrics"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

func TestByType(t *testing.T) {
	qs := []questions.Question{
		{QID: "a", Type: questions.Contextual}, {QID: "b", Type: questions.NamedEntity},
		{QID: "c", Type: questions.Contextual}, {QID: "d", Type: questions.Contextual},
	}
	qrels := ranking.Qrels{"a": {"g": 2}, "b": {"g": 2}, "c": {"g": 2, "h": 2}, "d": {"g": 2}}
	run := ranking.Run{"a": {{ChunkID: "g"}}, "c": {{ChunkID: "h"}}}
	res, err := metrics.Evaluate(qs, qrels, run, []string{"recall@5"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := bootstrap.ByType(res, "recall@5", 200, 9, bootstrap.DefaultLevel)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Type != questions.NamedEntity || got[1].Type != questions.Contextual {
		t.Fatalf("got %+v", got)
	}
	// named_entity: one question, recall 0, so every resample mean is 0.
	if g := got[0]; g.Questions != 1 || g.Mean != 0 || g.Lo != 0 || g.Hi != 0 {
		t.Errorf("named_entity = %+v", g)
	}
	// contextual: a, c, d with recall 1, 1/2, 0, from a matrix of its own size.
	mean, lo, hi := bootstrap.NewIndices(200, 3, 9).MeanCI([]float64{1, 0.5, 0}, bootstrap.DefaultLevel)
	if g := got[1]; g.Questions != 3 || g.Mean != mean || g.Lo != lo || g.Hi != hi {
		t.Errorf("contextual = %+v, want %v [%v, %v]", g, mean, lo, hi)
	}
	if _, err := bootstrap.ByType(res, "ndcg@5", 200, 9, bootstrap.DefaultLevel); err == nil {
		t.Error("unevaluated metric: no error")
	}
	t.Run("empty input", func(t *testing.T) {
		empty, err := metrics.Evaluate(nil, nil, nil, []string{"recall@5"})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := bootstrap.ByType(empty, "recall@5", 10, 1, bootstrap.DefaultLevel)
		if err != nil || len(rows) != 0 {
			t.Errorf("got %+v, %v", rows, err)
		}
	})
}
