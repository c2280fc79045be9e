package answer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/answer"
	"github.com/linemem/linemem/lib/memory"
	"github.com/linemem/linemem/lib/tokenize/everyday"
)

func window(id string, texts ...string) memory.Result {
	r := memory.Result{ChunkID: id}
	for i, t := range texts {
		r.Messages = append(r.Messages, memory.Message{ID: id + "-" + string(rune('a'+i)), Text: t})
	}
	return r
}

func TestExtractiveMethods(t *testing.T) {
	top := window("w1", "Ken joined the group", "Lunch at Kanda, noon works?", "Which place?", "Soba place Matsuya near Kanda station")
	top.Matched = []int{0, 1, 3}
	other := window("w2", "lunch lunch lunch with Ken at the ramen place")
	chunks := []memory.Result{top, other}
	q := "Where are we having lunch with Ken at Kanda?"
	cases := []struct {
		method, want string
	}{
		// coverage: lunch + kanda in message b (and ken from its neighbour a)
		// beat kanda alone in d; the other window is not read
		{answer.MethodCoverage, "Lunch at Kanda, noon works? [1]"},
		{answer.MethodFirstMatch, "Ken joined the group [1]"},
	}
	for _, c := range cases {
		t.Run(c.method, func(t *testing.T) {
			ex, err := answer.NewExtractiveMethod(newEveryday(t), c.method)
			if err != nil {
				t.Fatal(err)
			}
			a, err := ex.Answer(context.Background(), q, chunks)
			if err != nil {
				t.Fatal(err)
			}
			if a.Text != c.want || len(a.Citations) != 1 || a.Citations[0].ChunkID != "w1" {
				t.Errorf("%s: %q citing %+v, want %q citing w1", c.method, a.Text, a.Citations, c.want)
			}
		})
	}
	if _, err := answer.NewExtractiveMethod(newEveryday(t), "best"); err == nil || !strings.Contains(err.Error(), answer.MethodCoverage) {
		t.Errorf("unknown method: error %v, want one listing the methods", err)
	}
	ex, _ := answer.NewExtractiveMethod(newEveryday(t), answer.MethodCoverage)
	if a, _ := ex.Answer(context.Background(), "golf", chunks); !a.Abstained || a.Text != answer.AbstainPhrase {
		t.Errorf("no question term anywhere: %+v, want an abstention", a)
	}
}

func newEveryday(t *testing.T) *everyday.Analyzer {
	t.Helper()
	a, err := everyday.New()
	if err != nil {
		t.Fatal(err)
	}
	return a
}
