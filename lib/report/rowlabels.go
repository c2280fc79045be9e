package report

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rowTicks are the row labels of a PointsWithCI or DifferencesWithCI figure
// on its y axis: row i at y = i, as plot.NominalY sets them. Their own type
// lets a figure drawn too narrow for them move them above the rows
// (stackedRows).
type rowTicks plot.ConstantTicks

func (t rowTicks) Ticks(min, max float64) []plot.Tick { return plot.ConstantTicks(t).Ticks(min, max) }

// maxRowLabelShare is the largest share of a figure's width the row labels
// may take on the left of the rows. Wider labels leave too little room for
// the intervals (at one column's width, a label like "named_entity ·
// embedding_text_bm25 · citation recall" would take four fifths of it), so
// they are drawn above their rows instead, over the full width.
const maxRowLabelShare = 0.45

// stackedRowPitch is the height of one row when its label stands above it:
// the label's line (tickFontSize with leading), the dot and a gap.
const stackedRowPitch = vg.Length(21)

// stackedOverhead is the height a stacked figure needs besides its rows:
// the x axis with its tick labels and axis label, the margins and the space
// above the first row's label.
const stackedOverhead = vg.Length(64)

// rowsToStack returns p's row labels when they would take more than
// maxRowLabelShare of a figure width wide, and nil otherwise (also for a
// figure that has no row labels).
func rowsToStack(p *plot.Plot, width vg.Length) rowTicks {
	rows, ok := p.Y.Tick.Marker.(rowTicks)
	if !ok {
		return nil
	}
	var widest vg.Length
	for _, r := range rows {
		widest = max(widest, p.Y.Tick.Label.Width(r.Label))
	}
	if widest <= vg.Length(maxRowLabelShare)*width {
		return nil
	}
	return rows
}

// stackedHeight is the height at which a figure with n stacked rows shows
// every row at stackedRowPitch: height itself when that is enough.
func stackedHeight(n int, height vg.Length) vg.Length {
	return max(height, vg.Length(n)*stackedRowPitch+stackedOverhead)
}

// stackedRows returns a copy of p that draws rows' labels left-aligned
// above their rows, from the left edge of the data area, and none on the y
// axis. p itself is not changed.
func stackedRows(p *plot.Plot, rows rowTicks) *plot.Plot {
	q := *p
	blank := make(rowTicks, len(rows))
	xys := make(plotter.XYs, len(rows))
	names := make([]string, len(rows))
	for i, r := range rows {
		blank[i] = plot.Tick{Value: r.Value}
		xys[i] = plotter.XY{X: q.X.Min, Y: r.Value}
		names[i] = r.Label
	}
	q.Y.Tick.Marker = blank
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: names})
	if err != nil {
		panic("report: row labels: " + err.Error()) // len(xys) == len(names) by construction
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i] = text.Style{
			Color:   color.Black,
			Font:    font.From(figureFont, tickFontSize),
			XAlign:  draw.XLeft,
			YAlign:  draw.YBottom,
			Handler: q.TextHandler,
		}
	}
	labels.Offset = vg.Point{Y: vg.Points(6)}
	q.Add(labels)
	return &q
}
