package reproduce_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// TestCaptionOfAFigureBeyondThePaperHasNoNumber: a figure with Number 0 is
// named by its slug and captioned by its title, axes and notes alone.
func TestCaptionOfAFigureBeyondThePaperHasNoNumber(t *testing.T) {
	p, err := report.PointsWithCI("Recall@5 by tokenizer (95% CI)", "Recall@5", []report.LabeledCI{{Label: "a", Value: 0.5, Lo: 0.4, Hi: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	f := reproduce.Figure{Slug: "beyond_x", Plot: p, Notes: []string{"Rows: a."}}
	if f.BaseName() != "beyond_x" {
		t.Errorf("BaseName() = %q, want the slug", f.BaseName())
	}
	got := f.Caption()
	if !strings.HasPrefix(got, "Recall@5 by tokenizer (95% CI). ") || !strings.HasSuffix(got, " Rows: a.") || strings.Contains(got, "Figure") {
		t.Errorf("Caption() = %q, want the title, axes and notes with no figure number", got)
	}
}

// TestEveryCommittedFigureHasItsCaption walks results/: every figure (a
// .png) has its SVG, PDF and caption file beside it, and the caption is not
// empty.
func TestEveryCommittedFigureHasItsCaption(t *testing.T) {
	root := filepath.Join("..", "..", "results")
	figures := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".png" {
			return err
		}
		figures++
		base := strings.TrimSuffix(path, ".png")
		for _, ext := range []string{".svg", ".pdf", reproduce.CaptionExt} {
			b, err := os.ReadFile(base + ext)
			if err != nil {
				t.Errorf("%s: %v", path, err)
			} else if len(strings.TrimSpace(string(b))) == 0 {
				t.Errorf("%s%s is empty", base, ext)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if figures == 0 {
		t.Fatal("no figure under results/")
	}
}
