package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PointsWithCI draws one row per item, in the given order from top to
// bottom: the label on the left, the value as a dot with its confidence
// interval as a horizontal error bar, and the value printed right of the
// bar. The value axis is labelled valueLabel and spans [0, 1], since the
// items are metrics (Figure 1: Recall@5 per retriever; Figure 5: Recall@5
// overall and per question type).
//
// It returns an error wrapping ErrNoData for no items, and ErrInvalid for a
// non-finite value, Lo > Hi, or a value or bound outside [0, 1]. The point
// need not lie inside its interval: a percentile bootstrap interval may
// exclude the sample mean.
func PointsWithCI(title, valueLabel string, items []LabeledCI) (*plot.Plot, error) {
	if err := checkCIs(items); err != nil {
		return nil, err
	}
	for _, it := range items {
		if !inUnit(it.Value, it.Lo, it.Hi) {
			return nil, fmt.Errorf("report: %q: %v [%v, %v] outside [0, 1]: %w", it.Label, it.Value, it.Lo, it.Hi, ErrInvalid)
		}
	}
	p := newPlot(title, valueLabel, "")
	p.X.Min, p.X.Max = 0, 1
	p.X.Tick.Marker = unitTicks{}
	if err := addCIRows(p, items, F3); err != nil {
		return nil, err
	}
	return p, nil
}

// DifferencesWithCI draws paired differences like PointsWithCI, with a
// dashed vertical line at zero so that intervals that include zero stand out
// (Figure 4). The value axis is labelled xLabel and spans the intervals and
// zero with a margin; values are printed with an explicit sign (Signed3).
//
// It returns an error wrapping ErrNoData for no items and ErrInvalid for a
// non-finite value or Lo > Hi.
func DifferencesWithCI(title, xLabel string, items []LabeledCI) (*plot.Plot, error) {
	if err := checkCIs(items); err != nil {
		return nil, err
	}
	lo, hi := 0.0, 0.0
	for _, it := range items {
		lo = math.Min(lo, math.Min(it.Lo, it.Value))
		hi = math.Max(hi, math.Max(it.Hi, it.Value))
	}
	margin := 0.1 * (hi - lo)
	if margin == 0 {
		margin = 0.05
	}
	p := newPlot(title, xLabel, "")
	p.X.Min, p.X.Max = lo-margin, hi+margin
	p.Add(zeroLine{})
	if err := addCIRows(p, items, Signed3); err != nil {
		return nil, err
	}
	return p, nil
}

func checkCIs(items []LabeledCI) error {
	if len(items) == 0 {
		return fmt.Errorf("report: no intervals to draw: %w", ErrNoData)
	}
	for _, it := range items {
		if !finite(it.Value, it.Lo, it.Hi) {
			return fmt.Errorf("report: %q: non-finite value or bound: %w", it.Label, ErrInvalid)
		}
		if it.Lo > it.Hi {
			return fmt.Errorf("report: %q: lower bound %v above upper bound %v: %w", it.Label, it.Lo, it.Hi, ErrInvalid)
		}
	}
	return nil
}

// ciRows adapts items to plotter.XYer at their values; row i is drawn at
// y = n−1−i so that the first item is on top.
type ciRows []LabeledCI

func (r ciRows) Len() int { return len(r) }

func (r ciRows) XY(i int) (float64, float64) { return r[i].Value, float64(len(r) - 1 - i) }

// ciIntervals adapts items to plotter.XYer and plotter.XErrorer at the
// midpoints of their intervals. Error bars are not centred on the values
// because a percentile bootstrap interval need not contain the point
// estimate, and gonum draws x−|low|…x+|high|.
type ciIntervals []LabeledCI

func (r ciIntervals) Len() int { return len(r) }

func (r ciIntervals) XY(i int) (float64, float64) {
	return (r[i].Lo + r[i].Hi) / 2, float64(len(r) - 1 - i)
}

func (r ciIntervals) XError(i int) (float64, float64) {
	half := (r[i].Hi - r[i].Lo) / 2
	return half, half
}

// addCIRows adds grid, error bars, dots and value labels for items, and the
// item labels as the nominal y axis (rowTicks: drawn above the rows instead
// when they would take too much of the figure's width).
func addCIRows(p *plot.Plot, items []LabeledCI, format func(float64) string) error {
	rows := ciRows(items)
	bars, err := plotter.NewXErrorBars(ciIntervals(items))
	if err != nil {
		return err
	}
	bars.LineStyle.Width = vg.Points(1.2)
	bars.CapWidth = vg.Points(8)

	dots, err := plotter.NewScatter(rows)
	if err != nil {
		return err
	}
	dots.GlyphStyle = draw.GlyphStyle{Color: palette[0], Radius: vg.Points(4), Shape: draw.CircleGlyph{}}

	valueXY := make(plotter.XYs, len(items))
	valueText := make([]string, len(items))
	for i, it := range items {
		valueXY[i] = plotter.XY{X: it.Hi, Y: float64(len(items) - 1 - i)}
		valueText[i] = format(it.Value)
	}
	values, err := plotter.NewLabels(plotter.XYLabels{XYs: valueXY, Labels: valueText})
	if err != nil {
		return err
	}
	for i := range values.TextStyle {
		values.TextStyle[i] = text.Style{
			Color:   color.Black,
			Font:    font.From(figureFont, valueFontSize),
			XAlign:  draw.XLeft,
			YAlign:  draw.YCenter,
			Handler: p.TextHandler,
		}
	}
	values.Offset = vg.Point{X: vg.Points(6)}

	p.Add(gridLines(true, false), bars, dots, paddedLabels{values})

	names := make([]string, len(items))
	for i, it := range items {
		names[len(items)-1-i] = it.Label
	}
	p.NominalY(names...)
	p.Y.Tick.Marker = rowTicks(p.Y.Tick.Marker.(plot.ConstantTicks))
	p.Y.Min, p.Y.Max = -0.6, float64(len(items))-0.4
	return nil
}

// zeroLine draws a dashed vertical line at x = 0 across the data area.
type zeroLine struct{}

func (zeroLine) Plot(c draw.Canvas, p *plot.Plot) {
	x := c.X(p.X.Norm(0))
	style := draw.LineStyle{
		Color:  color.Gray{Y: 80},
		Width:  vg.Points(1),
		Dashes: []vg.Length{vg.Points(4), vg.Points(3)},
	}
	c.StrokeLine2(style, x, c.Min.Y, x, c.Max.Y)
}

// paddedLabels keeps a margin between value labels and the figure's edge.
type paddedLabels struct {
	*plotter.Labels
}

func (l paddedLabels) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	const margin = vg.Length(6)
	boxes := l.Labels.GlyphBoxes(p)
	for i := range boxes {
		boxes[i].Max.X += margin
	}
	return boxes
}
