package reproduce

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/report"
)

// Figure is one figure, ready to be saved or displayed: a figure of the
// paper (Number ≥ 1) or one beyond it (Number 0, named by its Slug alone).
type Figure struct {
	Number int
	Slug   string
	Plot   *plot.Plot
	// Notes follow the title in the caption: what abbreviations stand for,
	// what a label means.
	Notes []string
}

// BaseName is the figure's file name without extension: "figureN_slug" for
// a paper figure, the slug for one beyond the paper.
func (f Figure) BaseName() string {
	if f.Number == 0 {
		return f.Slug
	}
	return report.FigureBaseName(f.Number, f.Slug)
}

// CaptionExt ends the name of a figure's caption file, written beside its
// PNG and SVG: BaseName + CaptionExt.
const CaptionExt = ".caption.txt"

// PairingAbbreviations spells out the short names of retrievers and
// pairings that figures print (S-BM25, E-Vec, E-BM25+E-Vec @0.40).
const PairingAbbreviations = "R: raw_text; S: summary; E: embedding_text; BM25: BM25 keyword retrieval; Vec: dense vector retrieval; A+B @β: the linear hybrid of A and B with weight β on the BM25 score."

// Caption is the figure's caption: "Figure N. " (paper figures only) and its
// title, the range of each numeric axis (a metric axis need not start at 0),
// then its Notes.
func (f Figure) Caption() string {
	title := f.Plot.Title.Text + "."
	if f.Number > 0 {
		title = fmt.Sprintf("Figure %d. %s", f.Number, title)
	}
	parts := []string{title}
	for _, a := range []struct {
		name string
		axis *plot.Axis
	}{{"Horizontal", &f.Plot.X}, {"Vertical", &f.Plot.Y}} {
		if a.axis.Label.Text == "" {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s axis: %s from %s to %s.", a.name, a.axis.Label.Text, axisValue(a.axis.Min), axisValue(a.axis.Max)))
	}
	return strings.Join(append(parts, f.Notes...), " ")
}

// Save writes the figure into outDir as PNG, SVG and PDF at width × height
// (report.SaveFigure) and its Caption, with a final newline, as BaseName +
// CaptionExt. It returns the paths written.
func (f Figure) Save(outDir string, width, height vg.Length) ([]string, error) {
	paths, err := report.SaveFigure(f.Plot, outDir, f.BaseName(), width, height)
	if err != nil {
		return paths, err
	}
	path := filepath.Join(outDir, f.BaseName()+CaptionExt)
	if err := os.WriteFile(path, []byte(f.Caption()+"\n"), 0o644); err != nil {
		return paths, err
	}
	return append(paths, path), nil
}

// axisValue prints an axis bound with at most three decimals.
func axisValue(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
