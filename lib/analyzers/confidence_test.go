package analyzers_test

import (
	"slices"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/chat"
	"github.com/linemem/linemem/lib/questions"
	"github.com/linemem/linemem/lib/ranking"
)

// threeChats is a corpus of one window per source, each about its own
// things: q1's gold is in a.json, q2's in b.json, q3's in both.
func threeChats() *analyzers.Corpus {
	return &analyzers.Corpus{
		Name: "three",
		Chunks: []chat.Chunk{
			{ID: "a1", Source: "a.json", RawText: "pottery class and a blue bowl"},
			{ID: "b1", Source: "b.json", RawText: "tennis racket and green balls"},
			{ID: "c1", Source: "c.json", RawText: "rain and an umbrella"},
		},
		Questions: []questions.Question{{QID: "q1", Question: "pottery bowl"}, {QID: "q2", Question: "tennis racket"}, {QID: "q3", Question: "bowl racket"}},
		Qrels:     ranking.Qrels{"q1": {"a1": 2}, "q2": {"b1": 2}, "q3": {"a1": 2, "b1": 2}},
	}
}

// TestMeasureConfidenceSets: the answerable set has every question with
// relevance-2 gold; there is no no-answer set without no-answer questions;
// the other-chat set asks q1 without a.json and q2 without b.json (q3's
// gold spans two sources), where none of their words is left, so no
// window is found and the confidence is 0.
func TestMeasureConfidenceSets(t *testing.T) {
	sets, err := analyzers.MeasureConfidence(threeChats(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range sets {
		kinds = append(kinds, s.Kind)
	}
	if !slices.Equal(kinds, []string{analyzers.Answerable, analyzers.OtherChats}) {
		t.Fatalf("sets %v, want answerable and other-chat", kinds)
	}
	if got := len(sets[0].Values); got != 3 {
		t.Errorf("%d answerable confidences, want 3", got)
	}
	for i, v := range sets[0].Values {
		if v <= 0 {
			t.Errorf("answerable q%d: confidence %v, want > 0 (its words are in its window)", i+1, v)
		}
	}
	if got := sets[1].Values; !slices.Equal(got, []float64{0, 0}) {
		t.Errorf("other-chat confidences %v, want [0 0]", got)
	}
}

// TestMeasureConfidenceOneSource: with the gold of single-source questions
// in one source only there is no other-chat set.
func TestMeasureConfidenceOneSource(t *testing.T) {
	c := threeChats()
	c.Questions, c.Qrels = c.Questions[:1], ranking.Qrels{"q1": c.Qrels["q1"]}
	sets, err := analyzers.MeasureConfidence(c, []questions.Question{{QID: "n1", Question: "violin lessons"}})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range sets {
		kinds = append(kinds, s.Kind)
	}
	if !slices.Equal(kinds, []string{analyzers.Answerable, analyzers.NoAnswer}) {
		t.Errorf("sets %v, want answerable and no-answer", kinds)
	}
}
