package reproduce_test

import (
	"testing"

	"github.com/linemem/linemem/lib/report"
	"github.com/linemem/linemem/lib/reproduce"
)

func TestCaptionStatesTitleAxisRangesAndNotes(t *testing.T) {
	p, err := report.BetaCurves("Recall@5 vs β", "Recall@5", []report.Series{
		{Label: "S-BM25+S-Vec", X: []float64{0, 0.5, 1}, Y: []float64{0.41, 0.55, 0.62}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := reproduce.Figure{Number: 2, Slug: "x", Plot: p, Notes: []string{reproduce.PairingAbbreviations}}
	// MetricRange: ⌊(0.41 − 0.02)·10⌋/10 = 0.3, ⌈(0.62 + 0.02)·10⌉/10 = 0.7.
	want := "Figure 2. Recall@5 vs β. Horizontal axis: " + report.BetaXLabel + " from 0 to 1. Vertical axis: Recall@5 from 0.3 to 0.7. " + reproduce.PairingAbbreviations
	if got := f.Caption(); got != want {
		t.Fatalf("Caption() =\n%s\nwant\n%s", got, want)
	}
}
