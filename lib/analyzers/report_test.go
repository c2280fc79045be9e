package analyzers_test

import (
	"reflect"
	"testing"

	"github.com/linemem/linemem/lib/analyzers"
	"github.com/linemem/linemem/lib/experiment"
	"github.com/linemem/linemem/lib/metrics"
)

// TestTableReport: a column pair per corpus, then the means; one row per
// tokenizer; the question counts in corpus order.
func TestTableReport(t *testing.T) {
	cell := func(r5, s1 float64, n int) analyzers.Cell {
		return analyzers.Cell{Questions: n, Scores: map[string]experiment.Interval{
			metrics.Recall5:  {Mean: r5, Lo: r5 - 0.1, Hi: r5 + 0.1},
			metrics.Success1: {Mean: s1, Lo: s1 - 0.1, Hi: s1 + 0.1},
		}}
	}
	tab := &analyzers.Table{
		Tokenizers: []string{"everyday"},
		Corpora:    []string{"a", "b"},
		Cells:      map[string]map[string]analyzers.Cell{"everyday": {"a": cell(0.5, 0.25, 10), "b": cell(0.75, 0.5, 20)}},
		B:          100, Seed: 7,
	}
	rt := tab.Report(analyzers.Choice{Tokenizer: "everyday"})
	if want := []string{"tokenizer", "a R@5", "a S@1", "b R@5", "b S@1", "mean R@5", "mean S@1"}; !reflect.DeepEqual(rt.Columns, want) {
		t.Errorf("columns %q, want %q", rt.Columns, want)
	}
	wantRow := []string{"everyday", "0.500 [0.400, 0.600]", "0.250 [0.150, 0.350]", "0.750 [0.650, 0.850]", "0.500 [0.400, 0.600]", "0.625", "0.375"}
	if len(rt.Rows) != 1 || !reflect.DeepEqual(rt.Rows[0], wantRow) {
		t.Errorf("rows %q, want [%q]", rt.Rows, wantRow)
	}
	if want := "Questions evaluated: a 10, b 20. Intervals: 100 paired resamples of the questions, seed 7."; len(rt.Notes) == 0 || rt.Notes[0] != want {
		t.Errorf("notes %q, want first %q", rt.Notes, want)
	}
}
