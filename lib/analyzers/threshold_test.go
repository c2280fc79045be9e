package analyzers_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
)

// TestAbstainAtTheThreshold: a search abstains when its confidence is
// strictly below the threshold, so a confidence equal to it is answered:
// an answerable question at 0.50 is not flagged, an unanswerable one at
// 0.50 is answered (not flagged), both at threshold 0.50.
func TestAbstainAtTheThreshold(t *testing.T) {
	sets := []analyzers.Confidences{
		{Corpus: "a", Kind: analyzers.Answerable, Values: []float64{0.5, 0.49}},
		{Corpus: "a", Kind: analyzers.NoAnswer, Values: []float64{0.5, 0.49, 0.51}},
	}
	rt := analyzers.AbstainReport(sets, analyzers.Threshold{At: 0.5, Rule: "r"}, 0.5)
	want := [][]string{
		{"a", analyzers.Answerable, "2", "answerable questions flagged", "0.500"},     // 0.49 of 2
		{"a", analyzers.NoAnswer, "3", "unanswerable questions not flagged", "0.667"}, // 0.50 and 0.51 of 3
		{"all", analyzers.Answerable, "", "answerable questions flagged", "0.500"},    // pooled: the same
		{"all", analyzers.NoAnswer + ", " + analyzers.OtherChats, "", "unanswerable questions not flagged", "0.667"},
	}
	if len(rt.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rt.Rows), len(want))
	}
	for i := range want {
		for j := range want[i] {
			if rt.Rows[i][j] != want[i][j] {
				t.Errorf("row %d column %d = %q, want %q", i, j, rt.Rows[i][j], want[i][j])
			}
		}
	}
	// The note on the other-chat set only where there is one.
	if len(rt.Notes) != 1 {
		t.Errorf("notes %q, want the confidence note only (no other-chat set)", rt.Notes)
	}
	sets = append(sets, analyzers.Confidences{Corpus: "a", Kind: analyzers.OtherChats, Values: []float64{0.1}})
	if notes := analyzers.AbstainReport(sets, analyzers.Threshold{At: 0.5, Rule: "r"}, 0.5).Notes; len(notes) != 2 || !strings.HasPrefix(notes[1], "other-chat:") {
		t.Errorf("notes %q, want the confidence note and the other-chat one", notes)
	}
}

// TestChooseThresholdReachesOne: the hundredths searched run up to 1.00
// included. Answerable questions at 1.0 and unanswerable ones at 0.995:
// only at 1.00 are none of them wrong.
func TestChooseThresholdReachesOne(t *testing.T) {
	sets := []analyzers.Confidences{
		{Kind: analyzers.Answerable, Values: []float64{1, 1}},
		{Kind: analyzers.NoAnswer, Values: []float64{0.995}},
	}
	th := analyzers.ChooseThreshold(sets)
	if math.Abs(th.At-1) > 1e-12 || th.FalseAbstain != 0 || th.FalseAnswer != 0 {
		t.Errorf("ChooseThreshold = %+v, want At 1.00 with no error", th)
	}
	within := analyzers.ChooseThresholdWithin(sets, 0)
	if math.Abs(within.At-1) > 1e-12 {
		t.Errorf("ChooseThresholdWithin = %+v, want At 1.00 (no answerable question is flagged there)", within)
	}
}

// TestChooseThresholdWithinAtTheLimit: a set may have exactly maxFlagged
// of its answerable questions flagged. One of four (0.25) is flagged from
// 0.11 to 0.50, all four from 0.51: with maxFlagged 0.25 the highest
// threshold is 0.50. The rule names the limit as a percentage.
func TestChooseThresholdWithinAtTheLimit(t *testing.T) {
	sets := []analyzers.Confidences{
		{Kind: analyzers.Answerable, Values: []float64{0.1, 0.5, 0.5, 0.5}},
		{Kind: analyzers.NoAnswer, Values: []float64{0.3}},
	}
	th := analyzers.ChooseThresholdWithin(sets, 0.25)
	if math.Abs(th.At-0.50) > 1e-12 || th.FalseAbstain != 0.25 || th.FalseAnswer != 0 {
		t.Errorf("threshold %+v, want 0.50 with 1 of 4 flagged and the unanswerable one flagged", th)
	}
	if want := "is the highest that flags at most 25% of the answerable questions of every set"; th.Rule != want {
		t.Errorf("rule %q, want %q", th.Rule, want)
	}
}

// TestEverydayRatesAtTheThreshold: a confidence equal to the threshold is
// not flagged, answerable or not.
func TestEverydayRatesAtTheThreshold(t *testing.T) {
	run := &analyzers.EverydayRun{Outcomes: []analyzers.Outcome{
		{QID: "q", Kind: analyzers.Answerable, Confidence: 0.5},
		{QID: "u", Kind: analyzers.NoAnswer, Confidence: 0.5},
		{QID: "o", Kind: analyzers.OtherChats, Confidence: 0.49},
	}}
	r := run.EverydayRates(0.5)
	if !slices.Equal(r[1], []float64{0}) || !slices.Equal(r[2], []float64{0, 1}) {
		t.Errorf("answerable flagged %v, unanswerable flagged %v; want [0] and [0 1]", r[1], r[2])
	}
}

// TestOverallIsTheMeanOverCorpora: (0.2 + 0.4) / 2 and (1 + 0) / 2.
func TestOverallIsTheMeanOverCorpora(t *testing.T) {
	tb := table(map[string]map[string][4]float64{"x": {"a": {0.2, 0, 1, 0}, "b": {0.4, 0, 0, 0}}}, []string{"x"}, []string{"a", "b"})
	if got, want := tb.Overall("x", analyzers.Metrics[0]), (0.2+0.4)/2; math.Abs(got-want) > 1e-15 {
		t.Errorf("Overall R@5 = %v, want %v", got, want)
	}
	if got, want := tb.Overall("x", analyzers.Metrics[1]), (1+0)/2.0; got != want {
		t.Errorf("Overall S@1 = %v, want %v", got, want)
	}
}

// TestRatesOfAnEmptySide: a side without questions has a rate of 0, not
// 0/0: only unanswerable questions give a 0 flagged share of answerable
// ones, only answerable questions a 0 share of unanswerable ones answered.
func TestRatesOfAnEmptySide(t *testing.T) {
	for _, c := range []struct {
		set      analyzers.Confidences
		row, col int // the pooled row of the empty side
	}{
		{analyzers.Confidences{Corpus: "a", Kind: analyzers.NoAnswer, Values: []float64{0.2}}, 1, 4},
		{analyzers.Confidences{Corpus: "a", Kind: analyzers.Answerable, Values: []float64{0.2}}, 2, 4},
	} {
		rt := analyzers.AbstainReport([]analyzers.Confidences{c.set}, analyzers.Threshold{At: 0.5}, 0.5)
		if got := rt.Rows[c.row][c.col]; got != "0.000" {
			t.Errorf("%s only: row %v, want a rate of 0.000", c.set.Kind, rt.Rows[c.row])
		}
	}
}

// TestChooseThresholdWithinTolerance: a flagged share above maxFlagged by
// no more than 1e-12 (rounding) counts as within it: with maxFlagged
// 0.25 − 1e-12 the threshold is the one of 0.25.
func TestChooseThresholdWithinTolerance(t *testing.T) {
	sets := []analyzers.Confidences{
		{Kind: analyzers.Answerable, Values: []float64{0.1, 0.5, 0.5, 0.5}},
		{Kind: analyzers.NoAnswer, Values: []float64{0.3}},
	}
	if got, want := analyzers.ChooseThresholdWithin(sets, 0.25-1e-12).At, analyzers.ChooseThresholdWithin(sets, 0.25).At; got != want {
		t.Errorf("threshold %v within 0.25 − 1e-12, want %v as within 0.25", got, want)
	}
}
