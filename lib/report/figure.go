package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PNGDPI is the resolution of PNG figures in dots per inch, a print
// resolution: a 3.3 in figure is 990 pixels wide.
const PNGDPI = 300

// Figure sizes for a two-column paper: DefaultWidth × DefaultHeight spans
// both columns (the text width), ColumnWidth × ColumnHeight one column.
// Fonts are fixed in points (below), so a figure printed at these sizes
// shows 8–10 pt text.
const (
	DefaultWidth  = 7 * vg.Inch
	DefaultHeight = 3.5 * vg.Inch
	ColumnWidth   = 3.3 * vg.Inch
	ColumnHeight  = 2.6 * vg.Inch
)

// Font sizes in points, fixed so that figures render identically on every
// run whatever plot.DefaultFont is set to, and chosen for print at
// ColumnWidth (a paper's figure text is 8–10 pt).
const (
	titleFontSize  = 10
	labelFontSize  = 9
	tickFontSize   = 8
	legendFontSize = 8
	valueFontSize  = 8
)

// figureFont is the typeface of every text in a figure. Liberation Sans is
// bundled with gonum/plot and metric-compatible with Arial, which is why
// SVG output names Arial as its fallback.
var figureFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// svgFontFamily is the font-family value written into SVG files: the bundled
// font first, then metric-compatible and generic fallbacks for viewers that
// do not have Liberation Sans installed.
const svgFontFamily = "'Liberation Sans',Arial,Helvetica,sans-serif"

// LabeledCI is one estimate with its confidence interval, drawn as a point
// with an error bar: a retriever's Recall@5, or a paired difference.
type LabeledCI struct {
	Label         string
	Value, Lo, Hi float64
}

// Series is one line of a figure: Y[i] is drawn at X[i].
type Series struct {
	Label string
	X, Y  []float64
}

// Point marks one location of a figure, such as the selected configuration
// of a sweep. Label names it in the legend.
type Point struct {
	X, Y  float64
	Label string
}

// newPlot returns a plot with the package's fixed fonts and sizes.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(figureFont, titleFontSize)
	p.Title.Padding = vg.Points(8)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(figureFont, labelFontSize)
		a.Tick.Label.Font = font.From(figureFont, tickFontSize)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = font.From(figureFont, legendFontSize)
	p.Add(dataProbe{})
	return p
}

// gridLines returns light grey grid lines, vertical, horizontal or both.
func gridLines(vertical, horizontal bool) *plotter.Grid {
	g := plotter.NewGrid()
	grey := color.Gray{Y: 220}
	g.Vertical.Color, g.Horizontal.Color = grey, grey
	if !vertical {
		g.Vertical.Color = nil
	}
	if !horizontal {
		g.Horizontal.Color = nil
	}
	return g
}

// seriesStyle is the look of the i-th line: colour, marker and dash pattern
// all differ between neighbouring indices, so lines stay distinguishable
// when printed in greyscale.
type seriesStyle struct {
	color  color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}

// palette holds the Okabe–Ito colours, safe for colour-blind readers, minus
// its yellow, which is too light on white.
var palette = []color.Color{
	color.RGBA{R: 0, G: 114, B: 178, A: 255},   // blue
	color.RGBA{R: 213, G: 94, B: 0, A: 255},    // vermillion
	color.RGBA{R: 0, G: 158, B: 115, A: 255},   // bluish green
	color.RGBA{R: 204, G: 121, B: 167, A: 255}, // reddish purple
	color.RGBA{R: 230, G: 159, B: 0, A: 255},   // orange
	color.RGBA{R: 86, G: 180, B: 233, A: 255},  // sky blue
	color.RGBA{A: 255},                         // black
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{},
	draw.SquareGlyph{},
	draw.TriangleGlyph{},
	draw.CrossGlyph{},
	draw.BoxGlyph{},
	draw.PyramidGlyph{},
	draw.PlusGlyph{},
}

var dashPatterns = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)},
	{vg.Points(10), vg.Points(3)},
	{vg.Points(3), vg.Points(3)},
}

func styleOf(i int) seriesStyle {
	return seriesStyle{
		color:  palette[i%len(palette)],
		glyph:  glyphs[i%len(glyphs)],
		dashes: dashPatterns[i%len(dashPatterns)],
	}
}

// unitTicks marks a metric axis within [0, 1] with a tick every 0.1:
// every tick labelled when the axis spans at most 0.6, every other one (0.0,
// 0.2, …) otherwise.
type unitTicks struct{}

func (unitTicks) Ticks(min, max float64) []plot.Tick {
	every := 1
	if max-min > 0.6+1e-9 {
		every = 2
	}
	var ticks []plot.Tick
	for i := 0; i <= 10; i++ {
		v := float64(i) / 10
		if v < min-1e-9 || v > max+1e-9 {
			continue
		}
		label := ""
		if i%every == 0 {
			label = strconv.FormatFloat(v, 'f', 1, 64)
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

// MetricRange is the y range a metric figure draws: the values' minimum and
// maximum widened by 0.02 and rounded out to multiples of 0.1, within
// [0, 1], and at least 0.2 wide (widened upward, or downward at 1), so that
// differences between lines fill the plot instead of a 0–1 axis. ErrNoData
// when ys is empty.
func MetricRange(ys ...float64) (lo, hi float64, err error) {
	if len(ys) == 0 {
		return 0, 0, fmt.Errorf("report: no values for a range: %w", ErrNoData)
	}
	min, max := ys[0], ys[0]
	for _, y := range ys[1:] {
		min, max = math.Min(min, y), math.Max(max, y)
	}
	lo = math.Max(0, math.Floor((min-0.02)*10+1e-9)/10)
	hi = math.Min(1, math.Ceil((max+0.02)*10-1e-9)/10)
	if hi-lo < 0.2-1e-9 {
		if lo+0.2 <= 1 {
			hi = lo + 0.2
		} else {
			lo = hi - 0.2
		}
	}
	return lo, hi, nil
}

// RenderSVG draws p on a width × height SVG canvas and returns the document.
// Fonts are referenced, not embedded: text names Liberation Sans, then the
// metric-compatible Arial, Helvetica and sans-serif as fallbacks.
func RenderSVG(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	c := vgsvg.New(width, height)
	drawWithMargin(p, draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	out := strings.ReplaceAll(b.String(), "font-family:Liberation Sans;", "font-family:"+svgFontFamily+";")
	return []byte(out), nil
}

// RenderPNG draws p on a width × height canvas at PNGDPI on a white
// background and returns the PNG encoding.
func RenderPNG(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(PNGDPI), vgimg.UseBackgroundColor(color.White))
	drawWithMargin(p, draw.New(c))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// figureMargin is the blank border around every figure, so that tick labels
// and titles do not touch the edge of the image.
const figureMargin = vg.Length(6)

// drawWithMargin fills c with the plot's background and draws p inside a
// figureMargin border. A title wider than that is left out (a figure one
// column wide; its caption carries the title) rather than cut at the edges,
// and row labels wider than maxRowLabelShare of the canvas are drawn above
// their rows (stackedRows).
func drawWithMargin(p *plot.Plot, c draw.Canvas) {
	if p.BackgroundColor != nil {
		c.SetColor(p.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	inner := draw.Crop(c, figureMargin, -figureMargin, figureMargin, -figureMargin)
	if rows := rowsToStack(p, inner.Max.X-inner.Min.X); rows != nil {
		p = stackedRows(p, rows)
	}
	if p.Title.Text != "" && p.Title.TextStyle.Width(p.Title.Text) > inner.Max.X-inner.Min.X {
		untitled := *p
		untitled.Title.Text = ""
		p = &untitled
	}
	p.Draw(inner)
}

func checkSize(width, height vg.Length) error {
	if !(width > 2*figureMargin && height > 2*figureMargin) || math.IsInf(float64(width), 0) || math.IsInf(float64(height), 0) {
		return fmt.Errorf("report: figure size %v × %v: %w", width, height, ErrInvalid)
	}
	return nil
}

// SaveFigure writes p as base.png, base.svg and base.pdf into dir, creating
// dir if needed, and returns the three paths in that order. base is a file name
// without extension and directory, such as FigureBaseName(1,
// "single_retrievers"); width and height are the figure's size (DefaultWidth
// and DefaultHeight suit a page). A figure whose row labels are drawn above
// their rows at this width (PointsWithCI, DifferencesWithCI with long
// labels, at ColumnWidth) is made taller when height would crowd them: at
// least stackedRowPitch per row plus stackedOverhead.
func SaveFigure(p *plot.Plot, dir, base string, width, height vg.Length) ([]string, error) {
	if base == "" || base != filepath.Base(base) || base == "." || base == ".." || strings.ContainsAny(base, `/\`) {
		return nil, fmt.Errorf("report: figure base name %q: %w", base, ErrInvalid)
	}
	if rows := rowsToStack(p, width-2*figureMargin); rows != nil {
		height = stackedHeight(len(rows), height)
	}
	pngBytes, err := RenderPNG(p, width, height)
	if err != nil {
		return nil, err
	}
	svgBytes, err := RenderSVG(p, width, height)
	if err != nil {
		return nil, err
	}
	pdfBytes, err := RenderPDF(p, width, height)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".png", pngBytes}, {".svg", svgBytes}, {".pdf", pdfBytes}} {
		path := filepath.Join(dir, base+f.ext)
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// finite reports whether every value is neither NaN nor infinite.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// inUnit reports whether every value lies in [0, 1].
func inUnit(xs ...float64) bool {
	for _, x := range xs {
		if !(x >= 0 && x <= 1) {
			return false
		}
	}
	return true
}
