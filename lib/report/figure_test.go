package report_test

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/linemem/linemem/lib/report"
)

// Golden figures are rendered at one column's width, the size at which a
// figure is most crowded.
const (
	goldenWidth  = report.ColumnWidth
	goldenHeight = report.ColumnHeight
)

// pngChannelTol and pngPixelShare bound how far a rendered PNG may drift
// from its golden file: rasterised text and anti-aliased edges may differ
// by a few levels between CPUs and Go versions, while moving one point by
// 0.05 already changes 0.15% of the pixels (TestPNGToleranceDetectsMovedData).
const (
	pngChannelTol = 16     // of 255 per colour channel
	pngPixelShare = 0.0002 // of all pixels (about 80 at the golden size) may exceed pngChannelTol
)

type figureCase struct {
	name  string
	build func() (*plot.Plot, error)
	texts []string // text the figure must show
}

func figureCases() []figureCase {
	curves := betaSeries()
	sel := &report.Point{X: 0.45, Y: curves[0].Y[9], Label: "selected (β = 0.45)"}
	return []figureCase{
		{
			name: "figure1_single_retrievers",
			build: func() (*plot.Plot, error) {
				return report.PointsWithCI("Single-retriever Recall@5", "Recall@5 (95% bootstrap CI)", singleRetrievers())
			},
			texts: []string{"raw_text_bm25", "embedding_text_vector", "0.427", "0.584", "Recall@5 (95% bootstrap CI)", "1.0"},
		},
		{
			name: "figure2_beta_recall5",
			build: func() (*plot.Plot, error) {
				return report.BetaCurves("Hybrid Recall@5 versus β", "Recall@5", curves, sel)
			},
			texts: []string{"E-BM25 + E-Vec", "R-BM25 + S-Vec", "selected (β = 0.45)", report.BetaXLabel},
		},
		{
			name: "figure4_paired_differences",
			build: func() (*plot.Plot, error) {
				return report.DifferencesWithCI("Paired-bootstrap differences", "ΔRecall@5", differences())
			},
			texts: []string{"Best - E-BM25", "+0.113", "+0.050", "ΔRecall@5"},
		},
		{
			name: "figure5_by_type",
			build: func() (*plot.Plot, error) {
				return report.PointsWithCI("Selected hybrid by question type", "Recall@5", byType())
			},
			texts: []string{"overall", "aggregate", "0.345"},
		},
		{
			name: "figure6_topk",
			build: func() (*plot.Plot, error) {
				return report.TopKSensitivity("Top-K sensitivity by question type", "Recall@k", []int{5, 10, 20}, topKSeries())
			},
			texts: []string{"named_entity", "aggregate", ">5<", ">10<", ">20<", "Recall@k"},
		},
	}
}

// TestLegendsDoNotStealThePlot draws every figure at one- and two-column
// size and holds each legend, from the drawn layout, to at most a fifth of
// the figure's area, inside the figure and clear of the data area.
func TestLegendsDoNotStealThePlot(t *testing.T) {
	sizes := []struct {
		name string
		w, h vg.Length
	}{{"column", report.ColumnWidth, report.ColumnHeight}, {"text width", report.DefaultWidth, report.DefaultHeight}}
	for _, c := range figureCases() {
		for _, size := range sizes {
			t.Run(c.name+" at "+size.name, func(t *testing.T) {
				p, err := c.build()
				if err != nil {
					t.Fatal(err)
				}
				l, err := report.Layout(p, size.w, size.h)
				if err != nil {
					t.Fatal(err)
				}
				lines := c.name == "figure2_beta_recall5" || c.name == "figure6_topk"
				if lines != (len(l.Legends) == 1) {
					t.Errorf("%d legends drawn; a line figure has one, the others none", len(l.Legends))
				}
				if report.Area(l.Data) < report.Area(l.Figure)/4 {
					t.Errorf("data area %v is under a quarter of the figure %v", l.Data, l.Figure)
				}
				for _, r := range l.Legends {
					if share := report.Area(r) / report.Area(l.Figure); share > 1.0/5 {
						t.Errorf("legend %v covers %.2f of the figure, want at most 1/5", r, share)
					}
					if r.Min.X < l.Figure.Min.X || r.Max.X > l.Figure.Max.X || r.Min.Y < l.Figure.Min.Y || r.Max.Y > l.Figure.Max.Y {
						t.Errorf("legend %v leaves the figure %v", r, l.Figure)
					}
					if r.Min.X < l.Data.Max.X && r.Max.X > l.Data.Min.X && r.Min.Y < l.Data.Max.Y && r.Max.Y > l.Data.Min.Y {
						t.Errorf("legend %v overlaps the data area %v", r, l.Data)
					}
				}
			})
		}
	}
}

func TestFigureGolden(t *testing.T) {
	for _, c := range figureCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			svg, err := report.RenderSVG(p, goldenWidth, goldenHeight)
			if err != nil {
				t.Fatal(err)
			}
			pngBytes, err := report.RenderPNG(p, goldenWidth, goldenHeight)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.texts {
				if !bytes.Contains(svg, []byte(s)) {
					t.Errorf("SVG lacks %q", s)
				}
			}
			checkGolden(t, c.name+".svg", svg)
			checkGoldenPNG(t, c.name+".png", pngBytes)
		})
	}
}

// checkGoldenPNG compares decoded pixels with testdata/name within
// pngChannelTol and pngPixelShare, or rewrites the file under -update.
func checkGoldenPNG(t *testing.T, name string, got []byte) {
	t.Helper()
	raw, ok := goldenFile(t, name, got)
	if !ok {
		return
	}
	want, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if share := differingShare(img, want); share > pngPixelShare {
		t.Errorf("%s: %.2f%% of pixels differ from the golden image (allowed %.2f%%)", name, 100*share, 100*pngPixelShare)
	}
}

// differingShare returns the share of pixels whose colour channels differ
// by more than pngChannelTol; images of different sizes differ entirely.
func differingShare(a, b image.Image) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	r := a.Bounds()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			for _, d := range [...]float64{
				float64(r1) - float64(r2), float64(g1) - float64(g2),
				float64(b1) - float64(b2), float64(a1) - float64(a2),
			} {
				if math.Abs(d)/257 > pngChannelTol {
					n++
					break
				}
			}
		}
	}
	return float64(n) / float64(r.Dx()*r.Dy())
}

func TestFiguresAreDeterministic(t *testing.T) {
	for _, c := range figureCases() {
		t.Run(c.name, func(t *testing.T) {
			var svgs, pngs [2][]byte
			for i := range 2 {
				p, err := c.build()
				if err != nil {
					t.Fatal(err)
				}
				if svgs[i], err = report.RenderSVG(p, goldenWidth, goldenHeight); err != nil {
					t.Fatal(err)
				}
				if pngs[i], err = report.RenderPNG(p, goldenWidth, goldenHeight); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(svgs[0], svgs[1]) {
				t.Error("SVG differs between two renderings")
			}
			if !bytes.Equal(pngs[0], pngs[1]) {
				t.Error("PNG differs between two renderings")
			}
		})
	}
}

func TestRenderedSizes(t *testing.T) {
	p, err := report.PointsWithCI("t", "Recall@5", singleRetrievers())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := report.RenderPNG(p, 4*vg.Inch, 3*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 4*report.PNGDPI || cfg.Height != 3*report.PNGDPI {
		t.Errorf("PNG is %d × %d pixels, want %d × %d", cfg.Width, cfg.Height, 4*report.PNGDPI, 3*report.PNGDPI)
	}
	svg, err := report.RenderSVG(p, 4*vg.Inch, 3*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte(`width="288pt" height="216pt"`)) {
		t.Errorf("SVG header lacks the 288 × 216 pt size:\n%.300s", svg)
	}
	if !bytes.Contains(svg, []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")) ||
		bytes.Contains(svg, []byte("font-family:Liberation Sans;")) {
		t.Error("SVG text does not name the font fallbacks")
	}
	for _, size := range [][2]vg.Length{{0, 100}, {100, -1}, {vg.Length(math.Inf(1)), 100}, {vg.Length(math.NaN()), 100}} {
		if _, err := report.RenderSVG(p, size[0], size[1]); !errors.Is(err, report.ErrInvalid) {
			t.Errorf("RenderSVG(%v × %v): error %v, want ErrInvalid", size[0], size[1], err)
		}
		if _, err := report.RenderPNG(p, size[0], size[1]); !errors.Is(err, report.ErrInvalid) {
			t.Errorf("RenderPNG(%v × %v): error %v, want ErrInvalid", size[0], size[1], err)
		}
	}
}

func TestSaveFigure(t *testing.T) {
	p, err := report.DifferencesWithCI("t", "ΔRecall@5", differences())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "results")
	base := report.FigureBaseName(4, "paired_differences")
	paths, err := report.SaveFigure(p, dir, base, goldenWidth, goldenHeight)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, base+".png"), filepath.Join(dir, base+".svg"), filepath.Join(dir, base+".pdf")}
	if !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	svg, err := report.RenderSVG(p, goldenWidth, goldenHeight)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, paths[1:2]); !bytes.Equal(got[0], svg) {
		t.Error("saved SVG differs from RenderSVG")
	}
	pdfBytes, err := report.RenderPDF(p, goldenWidth, goldenHeight)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, paths[2:]); !bytes.Equal(got[0], pdfBytes) {
		t.Error("saved PDF differs from RenderPDF")
	}
	if _, err := png.Decode(bytes.NewReader(readAll(t, paths[:1])[0])); err != nil {
		t.Errorf("saved PNG: %v", err)
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`} {
		if _, err := report.SaveFigure(p, dir, bad, goldenWidth, goldenHeight); !errors.Is(err, report.ErrInvalid) {
			t.Errorf("base %q: error %v, want ErrInvalid", bad, err)
		}
	}
}

func TestFigureInputErrors(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"points: none", errOf(report.PointsWithCI("t", "y", nil)), report.ErrNoData},
		{"points: NaN", errOf(report.PointsWithCI("t", "y", []report.LabeledCI{{Label: "a", Value: nan}})), report.ErrInvalid},
		{"points: lo above hi", errOf(report.PointsWithCI("t", "y", []report.LabeledCI{{Label: "a", Value: 0.5, Lo: 0.6, Hi: 0.4}})), report.ErrInvalid},
		{"points: above one", errOf(report.PointsWithCI("t", "y", []report.LabeledCI{{Label: "a", Value: 0.5, Lo: 0.4, Hi: 1.1}})), report.ErrInvalid},
		{"points: negative", errOf(report.PointsWithCI("t", "y", []report.LabeledCI{{Label: "a", Value: -0.1, Lo: -0.2, Hi: 0}})), report.ErrInvalid},
		{"differences: none", errOf(report.DifferencesWithCI("t", "x", []report.LabeledCI{})), report.ErrNoData},
		{"differences: Inf", errOf(report.DifferencesWithCI("t", "x", []report.LabeledCI{{Label: "a", Hi: math.Inf(1)}})), report.ErrInvalid},
		{"beta: none", errOf(report.BetaCurves("t", "y", nil, nil)), report.ErrNoData},
		{"beta: no label", errOf(report.BetaCurves("t", "y", []report.Series{{X: []float64{0}, Y: []float64{0.5}}}, nil)), report.ErrInvalid},
		{"beta: length mismatch", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0, 1}, Y: []float64{0.5}}}, nil)), report.ErrInvalid},
		{"beta: empty", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a"}}, nil)), report.ErrInvalid},
		{"beta: x decreasing", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0.5, 0}, Y: []float64{0.5, 0.5}}}, nil)), report.ErrInvalid},
		{"beta: beta above one", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0, 1.5}, Y: []float64{0.5, 0.5}}}, nil)), report.ErrInvalid},
		{"beta: metric above one", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0, 1}, Y: []float64{0.5, 1.5}}}, nil)), report.ErrInvalid},
		{"beta: highlight NaN", errOf(report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0}, Y: []float64{0.5}}}, &report.Point{X: nan})), report.ErrInvalid},
		{"topk: no cutoffs", errOf(report.TopKSensitivity("t", "y", nil, topKSeries())), report.ErrNoData},
		{"topk: no series", errOf(report.TopKSensitivity("t", "y", []int{5, 10}, nil)), report.ErrNoData},
		{"topk: cutoffs not increasing", errOf(report.TopKSensitivity("t", "y", []int{10, 5, 20}, topKSeries())), report.ErrInvalid},
		{"topk: zero cutoff", errOf(report.TopKSensitivity("t", "y", []int{0, 5, 10}, topKSeries())), report.ErrInvalid},
		{"topk: short series", errOf(report.TopKSensitivity("t", "y", []int{5, 10, 20, 50}, topKSeries())), report.ErrInvalid},
		{"topk: X differs from cutoffs", errOf(report.TopKSensitivity("t", "y", []int{5, 10}, []report.Series{{Label: "a", X: []float64{5, 20}, Y: []float64{0.1, 0.2}}})), report.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.want) {
				t.Errorf("error %v, want %v", c.err, c.want)
			}
		})
	}
}

func TestFigureAcceptsEdgeInput(t *testing.T) {
	// A bootstrap percentile interval may exclude the point estimate.
	if _, err := report.PointsWithCI("t", "y", []report.LabeledCI{{Label: "skewed", Value: 0.30, Lo: 0.31, Hi: 0.5}}); err != nil {
		t.Errorf("point outside its interval: %v", err)
	}
	if _, err := report.DifferencesWithCI("t", "x", []report.LabeledCI{{Label: "identical methods"}}); err != nil {
		t.Errorf("all-zero difference: %v", err)
	}
	if _, err := report.TopKSensitivity("t", "y", []int{5, 10}, []report.Series{{Label: "a", X: []float64{5, 10}, Y: []float64{0.1, 0.2}}}); err != nil {
		t.Errorf("X equal to the cutoffs: %v", err)
	}
	if _, err := report.BetaCurves("t", "y", []report.Series{{Label: "a", X: []float64{0.5}, Y: []float64{0}}}, &report.Point{X: 0.5}); err != nil {
		t.Errorf("one-point series with unlabelled highlight: %v", err)
	}
}

func errOf(_ *plot.Plot, err error) error { return err }

func TestFigureLabelsKeepOrder(t *testing.T) {
	p, err := report.PointsWithCI("t", "Recall@5", singleRetrievers())
	if err != nil {
		t.Fatal(err)
	}
	svg, err := report.RenderSVG(p, goldenWidth, goldenHeight)
	if err != nil {
		t.Fatal(err)
	}
	// Text is written as <text x=".." y="-h" transform="scale(1, -1)" ...>
	// with h the height above the bottom edge, so the first item, drawn on
	// top, has the largest h.
	text := regexp.MustCompile(`<text x="[^"]*" y="(-?[0-9.]+)"[^>]*>([^<]*)</text>`)
	height := map[string]float64{}
	for _, m := range text.FindAllStringSubmatch(string(svg), -1) {
		y, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		height[m[2]] = -y
	}
	items := singleRetrievers()
	for i := 1; i < len(items); i++ {
		above, below := items[i-1].Label, items[i].Label
		if !(height[above] > height[below]) {
			t.Errorf("%q at height %v is not above %q at %v", above, height[above], below, height[below])
		}
	}
}

// TestPNGToleranceDetectsMovedData guards the tolerance itself: moving one
// point by 0.05 on the metric axis must exceed it.
func TestPNGToleranceDetectsMovedData(t *testing.T) {
	items := singleRetrievers()
	items[2].Value += 0.05
	p, err := report.PointsWithCI("Single-retriever Recall@5", "Recall@5 (95% bootstrap CI)", items)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := report.RenderPNG(p, goldenWidth, goldenHeight)
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "figure1_single_retrievers.png"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(golden))
	if err != nil {
		t.Fatal(err)
	}
	if share := differingShare(a, b); share <= pngPixelShare {
		t.Errorf("moved point changes %.3f%% of pixels, within the %.3f%% tolerance", 100*share, 100*pngPixelShare)
	}
}
