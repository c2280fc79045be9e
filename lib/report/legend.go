package report

import (
	"fmt"
	"image"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendColumns is the number of columns of a legend band: two entries
// side by side fit the data width of a ColumnWidth figure.
const legendColumns = 2

// Legend band geometry, in points.
const (
	legendThumbWidth = vg.Length(16) // a line sample with its marker
	legendThumbGap   = vg.Length(4)  // between sample and label
	legendRowGap     = vg.Length(2)  // between rows
	legendBandGap    = vg.Length(6)  // between the band and the data
)

// legendEntry is one line of a legend band: a label and the samples drawn
// before it (the line and its markers).
type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

// legendBand is a legend in legendColumns columns, in a band of its own
// above the data area: the band's height is reserved through GlyphBoxes, so
// the legend never covers data, and its width is the data area's, so it
// never widens the figure. Entries fill the rows left to right.
type legendBand struct {
	entries []legendEntry
	style   text.Style
}

func newLegendBand() *legendBand {
	return &legendBand{style: text.Style{Font: font.From(figureFont, legendFontSize), XAlign: draw.XLeft, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}}
}

func (b *legendBand) add(label string, thumbs ...plot.Thumbnailer) {
	b.entries = append(b.entries, legendEntry{label, thumbs})
}

func (b *legendBand) rows() int {
	return (len(b.entries) + legendColumns - 1) / legendColumns
}

func (b *legendBand) rowHeight() vg.Length {
	return b.style.Height("Ag") + legendRowGap
}

// height is the band's height without the gap below it.
func (b *legendBand) height() vg.Length {
	return vg.Length(b.rows()) * b.rowHeight()
}

// GlyphBoxes reserves the band above the data area (a zero-width box at
// the top edge reaching height + gap upward).
func (b *legendBand) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	if len(b.entries) == 0 {
		return nil
	}
	return []plot.GlyphBox{{X: 0.5, Y: 1, Rectangle: vg.Rectangle{Max: vg.Point{Y: b.height() + legendBandGap}}}}
}

// Plot draws the band above c, the data area, and reports its rectangle to
// a layoutCanvas.
func (b *legendBand) Plot(c draw.Canvas, _ *plot.Plot) {
	if len(b.entries) == 0 {
		return
	}
	band := vg.Rectangle{
		Min: vg.Point{X: c.Min.X, Y: c.Max.Y + legendBandGap},
		Max: vg.Point{X: c.Max.X, Y: c.Max.Y + legendBandGap + b.height()},
	}
	// A column starts at its share of the width, or after the widest
	// entry of the column before it and a gap, whichever is further right.
	starts := make([]vg.Length, legendColumns)
	for col := range starts {
		starts[col] = band.Min.X + vg.Length(col)*(band.Max.X-band.Min.X)/legendColumns
		if col == 0 {
			continue
		}
		widest := vg.Length(0)
		for i := col - 1; i < len(b.entries); i += legendColumns {
			widest = max(widest, b.style.Width(b.entries[i].label))
		}
		starts[col] = max(starts[col], starts[col-1]+legendThumbWidth+legendThumbGap+widest+2*legendThumbGap)
	}
	rowH := b.rowHeight()
	var used vg.Rectangle
	for i, e := range b.entries {
		col, row := i%legendColumns, i/legendColumns
		x := starts[col]
		yTop := band.Max.Y - vg.Length(row)*rowH
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: yTop - rowH + legendRowGap/2},
			Max: vg.Point{X: x + legendThumbWidth, Y: yTop - legendRowGap/2},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&thumb)
		}
		tx := x + legendThumbWidth + legendThumbGap
		c.FillText(b.style, vg.Point{X: tx, Y: yTop - rowH/2}, e.label)
		right := tx + b.style.Width(e.label)
		r := vg.Rectangle{Min: vg.Point{X: x, Y: yTop - rowH}, Max: vg.Point{X: right, Y: yTop}}
		if i == 0 {
			used = r
		} else {
			used = union(used, r)
		}
	}
	if lc := layoutOf(c); lc != nil {
		lc.legends = append(lc.legends, used)
	}
}

// union is the smallest rectangle holding a and b.
func union(a, b vg.Rectangle) vg.Rectangle {
	return vg.Rectangle{
		Min: vg.Point{X: min(a.Min.X, b.Min.X), Y: min(a.Min.Y, b.Min.Y)},
		Max: vg.Point{X: max(a.Max.X, b.Max.X), Y: max(a.Max.Y, b.Max.Y)},
	}
}

// dataProbe reports the data area to a layoutCanvas; it draws nothing.
type dataProbe struct{}

func (dataProbe) Plot(c draw.Canvas, _ *plot.Plot) {
	if lc := layoutOf(c); lc != nil {
		lc.data = c.Rectangle
	}
}

// layoutOf returns the layoutCanvas c draws on, through the draw.Canvas
// wrappers that cropping adds, or nil.
func layoutOf(c draw.Canvas) *layoutCanvas {
	var v vg.Canvas = c.Canvas
	for {
		switch w := v.(type) {
		case *layoutCanvas:
			return w
		case draw.Canvas:
			v = w.Canvas
		case *draw.Canvas:
			v = w.Canvas
		default:
			return nil
		}
	}
}

// layoutCanvas is a canvas that records where a figure's data area and
// legends fall; it draws through to the canvas it wraps.
type layoutCanvas struct {
	vg.Canvas
	data    vg.Rectangle
	legends []vg.Rectangle
}

// FigureLayout is where a figure's parts fall when drawn at a size, in
// points from the figure's bottom left corner.
type FigureLayout struct {
	Figure  vg.Rectangle   // the whole figure
	Data    vg.Rectangle   // the data area the axes span
	Legends []vg.Rectangle // each legend's drawn extent (samples and labels)
}

// Layout draws p at width × height, as RenderPNG would, and returns where
// its data area and legends fall.
func Layout(p *plot.Plot, width, height vg.Length) (FigureLayout, error) {
	if err := checkSize(width, height); err != nil {
		return FigureLayout{}, err
	}
	lc := &layoutCanvas{Canvas: discardCanvas{}}
	c := draw.Canvas{Canvas: lc, Rectangle: vg.Rectangle{Max: vg.Point{X: width, Y: height}}}
	drawWithMargin(p, c)
	if lc.data == (vg.Rectangle{}) {
		return FigureLayout{}, fmt.Errorf("report: figure has no data area probe (not built by this package): %w", ErrInvalid)
	}
	return FigureLayout{Figure: c.Rectangle, Data: lc.data, Legends: lc.legends}, nil
}

// Area is the area of r in square points (0 for an empty rectangle).
func Area(r vg.Rectangle) float64 {
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	if w <= 0 || h <= 0 {
		return 0
	}
	return float64(w * h)
}

// discardCanvas draws nothing; Layout measures on it.
type discardCanvas struct{}

func (discardCanvas) SetLineWidth(vg.Length)                 {}
func (discardCanvas) SetLineDash([]vg.Length, vg.Length)     {}
func (discardCanvas) SetColor(color.Color)                   {}
func (discardCanvas) Rotate(float64)                         {}
func (discardCanvas) Translate(vg.Point)                     {}
func (discardCanvas) Scale(float64, float64)                 {}
func (discardCanvas) Push()                                  {}
func (discardCanvas) Pop()                                   {}
func (discardCanvas) Stroke(vg.Path)                         {}
func (discardCanvas) Fill(vg.Path)                           {}
func (discardCanvas) FillString(font.Face, vg.Point, string) {}
func (discardCanvas) DrawImage(vg.Rectangle, image.Image)    {}
