package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BetaXLabel is the x-axis label of BetaCurves: β weighs the normalised
// BM25 score, s = (1−β)·s_vec + β·s_BM25 (spec §9).
const BetaXLabel = "β (weight of the BM25 score)"

// BetaCurves draws a metric against the hybrid weight β, one line per
// retriever pairing (Figures 2 and 3: Recall@5 and nDCG@5 for six pairings
// over 21 values of β). Lines differ in colour, marker and dash pattern;
// the legend is a band of two columns above the data area, so it never
// covers a line. When highlight is not nil, a large ring marks it (the
// selected configuration) with its Label ("selected" when empty) written
// beside it. The x axis spans [0, 1]; the y axis spans MetricRange of the
// values and the highlight, so that the differences between lines fill the
// plot (a caption should state the range: it does not start at 0).
//
// It returns an error wrapping ErrNoData when there are no series, and
// ErrInvalid for an empty label, X and Y of different or zero length, X not
// increasing, or a value (or the highlight) non-finite or outside [0, 1].
func BetaCurves(title, yLabel string, series []Series, highlight *Point) (*plot.Plot, error) {
	if err := checkSeries(series); err != nil {
		return nil, err
	}
	for _, s := range series {
		if !inUnit(s.X...) {
			return nil, fmt.Errorf("report: series %q: β outside [0, 1]: %w", s.Label, ErrInvalid)
		}
	}
	if highlight != nil && !inUnit(highlight.X, highlight.Y) {
		return nil, fmt.Errorf("report: highlight (%v, %v) outside [0, 1]: %w", highlight.X, highlight.Y, ErrInvalid)
	}
	p := newPlot(title, BetaXLabel, yLabel)
	p.X.Min, p.X.Max = 0, 1
	ys := allY(series)
	if highlight != nil {
		ys = append(ys, math.Min(1, highlight.Y+highlightHeadroom))
	}
	lo, hi, err := MetricRange(ys...)
	if err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = lo, hi
	p.X.Tick.Marker, p.Y.Tick.Marker = unitTicks{}, unitTicks{}
	p.Add(gridLines(true, true))
	band := newLegendBand()
	if err := addLines(p, band, series); err != nil {
		return nil, err
	}
	if highlight != nil {
		mark, err := plotter.NewScatter(plotter.XYs{{X: highlight.X, Y: highlight.Y}})
		if err != nil {
			return nil, err
		}
		mark.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
		label := highlight.Label
		if label == "" {
			label = "selected"
		}
		note, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: highlight.X, Y: highlight.Y}}, Labels: []string{label}})
		if err != nil {
			return nil, err
		}
		note.TextStyle[0] = text.Style{Color: color.Black, Font: font.From(figureFont, valueFontSize), XAlign: draw.XCenter, YAlign: draw.YBottom, Handler: p.TextHandler}
		note.Offset = vg.Point{Y: vg.Points(7)}
		p.Add(mark, note)
	}
	p.Add(band)
	return p, nil
}

// highlightHeadroom is the room kept above a highlight for its label, in
// metric units.
const highlightHeadroom = 0.07

// allY is every Y value of series, in order.
func allY(series []Series) []float64 {
	var ys []float64
	for _, s := range series {
		ys = append(ys, s.Y...)
	}
	return ys
}

// TopKSensitivity draws a metric at the cutoffs ks, one line per question
// type (Figure 6: Recall@k or Success@k at k = 5, 10, 20). Series i holds
// the metric at ks[j] in Y[j]; its X must be nil or equal to ks. The k axis
// is logarithmic, so doubling cutoffs are evenly spaced, with ticks at ks;
// the y axis, labelled yLabel, spans MetricRange of the values. The legend
// is a band above the data area, as in BetaCurves.
//
// It returns an error wrapping ErrNoData when there are no series or no
// cutoffs, and ErrInvalid when ks is not positive and increasing, a series
// has the wrong length or an empty label, or a value is outside [0, 1].
func TopKSensitivity(title, yLabel string, ks []int, series []Series) (*plot.Plot, error) {
	if len(ks) == 0 {
		return nil, fmt.Errorf("report: no cutoffs: %w", ErrNoData)
	}
	kx := make([]float64, len(ks))
	for i, k := range ks {
		if k <= 0 || i > 0 && k <= ks[i-1] {
			return nil, fmt.Errorf("report: cutoffs %v: want positive and increasing: %w", ks, ErrInvalid)
		}
		kx[i] = float64(k)
	}
	lines := make([]Series, len(series))
	for i, s := range series {
		if s.X != nil && !slices.Equal(s.X, kx) {
			return nil, fmt.Errorf("report: series %q: X %v differs from cutoffs %v: %w", s.Label, s.X, ks, ErrInvalid)
		}
		lines[i] = Series{Label: s.Label, X: kx, Y: s.Y}
	}
	if err := checkSeries(lines); err != nil {
		return nil, err
	}
	p := newPlot(title, "cutoff k (retrieved chunks)", yLabel)
	p.X.Scale = plot.LogScale{}
	ticks := make([]plot.Tick, len(ks))
	for i, k := range ks {
		ticks[i] = plot.Tick{Value: float64(k), Label: strconv.Itoa(k)}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = kx[0]/1.25, kx[len(kx)-1]*1.25
	lo, hi, err := MetricRange(allY(lines)...)
	if err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = lo, hi
	p.Y.Tick.Marker = unitTicks{}
	p.Add(gridLines(true, true))
	band := newLegendBand()
	if err := addLines(p, band, lines); err != nil {
		return nil, err
	}
	p.Add(band)
	return p, nil
}

// checkSeries validates series for a line figure whose y axis is a metric.
func checkSeries(series []Series) error {
	if len(series) == 0 {
		return fmt.Errorf("report: no series to draw: %w", ErrNoData)
	}
	for _, s := range series {
		switch {
		case s.Label == "":
			return fmt.Errorf("report: series without label: %w", ErrInvalid)
		case len(s.X) == 0 || len(s.X) != len(s.Y):
			return fmt.Errorf("report: series %q: %d x and %d y values: %w", s.Label, len(s.X), len(s.Y), ErrInvalid)
		case !finite(s.X...) || !finite(s.Y...):
			return fmt.Errorf("report: series %q: non-finite value: %w", s.Label, ErrInvalid)
		case !inUnit(s.Y...):
			return fmt.Errorf("report: series %q: value outside [0, 1]: %w", s.Label, ErrInvalid)
		}
		for i := 1; i < len(s.X); i++ {
			if s.X[i] <= s.X[i-1] {
				return fmt.Errorf("report: series %q: x not increasing at %d: %w", s.Label, i, ErrInvalid)
			}
		}
	}
	return nil
}

// addLines adds one styled line with markers per series and its entry in band.
func addLines(p *plot.Plot, band *legendBand, series []Series) error {
	for i, s := range series {
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return err
		}
		st := styleOf(i)
		line.LineStyle = draw.LineStyle{Color: st.color, Width: vg.Points(1.5), Dashes: st.dashes}
		points.GlyphStyle = draw.GlyphStyle{Color: st.color, Radius: vg.Points(2.5), Shape: st.glyph}
		p.Add(line, points)
		band.add(s.Label, line, points)
	}
	return nil
}
