package report

// The PDF canvas follows gonum.org/v1/plot/vg/vgpdf (BSD-3-Clause, The
// Gonum Authors) with two changes: text is written with each font embedded
// as a UTF-8 TrueType subset, where vgpdf encodes it as code page 1252 (no
// β, Δ or −, no Japanese), and the document carries fixed dates instead of
// the time of writing, so that the same plot gives the same bytes.

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"time"

	pdf "codeberg.org/go-pdf/fpdf"
	stdfnt "golang.org/x/image/font"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// pdfDate is the creation and modification date of every PDF figure.
var pdfDate = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// pdfCanvas is a vg.Canvas writing one PDF page in points (72 per inch).
type pdfCanvas struct {
	doc   *pdf.Fpdf
	w, h  vg.Length
	stack []pdfContext
	fonts map[string]bool
	err   error
}

type pdfContext struct {
	width vg.Length
}

func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := pdf.NewCustom(&pdf.InitType{UnitStr: "pt", Size: pdf.SizeType{Wd: w.Points(), Ht: h.Points()}})
	doc.SetCreationDate(pdfDate)
	doc.SetModificationDate(pdfDate)
	doc.SetCatalogSort(true)
	doc.SetCompression(true)
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.AddPage()
	c := &pdfCanvas{doc: doc, w: w, h: h, stack: make([]pdfContext, 1), fonts: map[string]bool{}}
	c.Push()
	c.Translate(vg.Point{X: 0, Y: h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

func (c *pdfCanvas) Size() (w, h vg.Length) { return c.w, c.h }

func (c *pdfCanvas) context() *pdfContext { return &c.stack[len(c.stack)-1] }

func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.context().width = w
	c.doc.SetLineWidth(w.Points())
}

func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offs vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = d.Points()
	}
	c.doc.SetDashPattern(ds, offs.Points())
}

func (c *pdfCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	r, g, b, a := clr.RGBA()
	c.doc.SetFillColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetDrawColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetTextColor(int(r>>8), int(g>>8), int(b>>8))
	c.doc.SetAlpha(float64(a)/math.MaxUint16, "Normal")
}

func (c *pdfCanvas) Rotate(r float64) { c.doc.TransformRotate(-r*180/math.Pi, 0, 0) }

func (c *pdfCanvas) Translate(pt vg.Point) { c.doc.TransformTranslate(pt.X.Points(), pt.Y.Points()) }

func (c *pdfCanvas) Scale(x, y float64) { c.doc.TransformScale(x*100, y*100, 0, 0) }

func (c *pdfCanvas) Push() {
	c.stack = append(c.stack, *c.context())
	c.doc.TransformBegin()
}

func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.stack = c.stack[:len(c.stack)-1]
}

func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.context().width > 0 {
		c.path(p, "D")
	}
}

func (c *pdfCanvas) Fill(p vg.Path) { c.path(p, "F") }

// fontStyle is fpdf's style letters for f.
func fontStyle(f font.Font) string {
	style := ""
	if f.Weight == stdfnt.WeightBold {
		style += "B"
	}
	if f.Style == stdfnt.StyleItalic {
		style += "I"
	}
	return style
}

func (c *pdfCanvas) FillString(fnt font.Face, pt vg.Point, str string) {
	if fnt.Font.Size == 0 {
		return
	}
	name, style := fnt.Name(), fontStyle(fnt.Font)
	if !c.fonts[name+style] {
		var raw bytes.Buffer
		if _, err := fnt.Face.WriteSourceTo(nil, &raw); err != nil {
			c.err = fmt.Errorf("report: PDF font %s: %w", name, err)
			return
		}
		c.doc.AddUTF8FontFromBytes(name, style, raw.Bytes())
		c.fonts[name+style] = true
	}
	c.doc.SetFont(name, style, fnt.Font.Size.Points())
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1)
	// fpdf places text by its cell's top left corner: the cell is one font
	// size high, its baseline at the ascent.
	ext := fnt.Extents()
	_, h := c.doc.GetFontSize()
	top := -ext.Ascent.Points() * h / (ext.Ascent + ext.Descent).Points()
	c.doc.MoveTo(-c.doc.GetCellMargin(), top)
	c.doc.CellFormat(c.doc.GetStringWidth(str), h, str, "", 0, "BL", false, 0, "")
}

func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.err = err
		return
	}
	opts := pdf.ImageOptions{ImageType: "png", ReadDpi: true}
	name := fmt.Sprintf("image_%p", img)
	c.doc.RegisterImageOptionsReader(name, opts, &buf)
	size := rect.Size()
	c.doc.ImageOptions(name, rect.Min.X.Points(), rect.Min.Y.Points(), size.X.Points(), size.Y.Points(), false, opts, 0, "")
}

func (c *pdfCanvas) path(path vg.Path, style string) {
	var start vg.Point
	for _, comp := range path {
		switch comp.Type {
		case vg.MoveComp:
			start = comp.Pos
			c.doc.MoveTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.LineComp:
			c.doc.LineTo(comp.Pos.X.Points(), comp.Pos.Y.Points())
		case vg.ArcComp:
			c.arc(comp, style)
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				c.doc.CurveTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(), comp.Pos.X.Points(), comp.Pos.Y.Points())
			case 2:
				c.doc.CurveBezierCubicTo(comp.Control[0].X.Points(), comp.Control[0].Y.Points(),
					comp.Control[1].X.Points(), comp.Control[1].Y.Points(), comp.Pos.X.Points(), comp.Pos.Y.Points())
			}
		case vg.CloseComp:
			c.doc.LineTo(start.X.Points(), start.Y.Points())
			c.doc.ClosePath()
		}
	}
	c.doc.DrawPath(style)
}

func (c *pdfCanvas) arc(comp vg.PathComp, style string) {
	x0 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start))
	y0 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start))
	c.doc.LineTo(x0.Points(), y0.Points())
	r := comp.Radius.Points()
	const deg = 180 / math.Pi
	beg := comp.Start * deg
	c.doc.Arc(comp.Pos.X.Points(), comp.Pos.Y.Points(), r, r, comp.Angle*deg, beg, beg+comp.Angle*deg, style)
	x1 := comp.Pos.X + comp.Radius*vg.Length(math.Cos(comp.Start+comp.Angle))
	y1 := comp.Pos.Y + comp.Radius*vg.Length(math.Sin(comp.Start+comp.Angle))
	c.doc.MoveTo(x1.Points(), y1.Points())
}

// RenderPDF draws p on a width × height PDF page and returns the document.
// Every font is embedded as a UTF-8 TrueType subset, so any text (β, Δ,
// −, Japanese in a font that has it) prints as drawn; the document's dates
// are fixed (pdfDate), so the same plot gives the same bytes.
func RenderPDF(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	if err := checkSize(width, height); err != nil {
		return nil, err
	}
	c := newPDFCanvas(width, height)
	drawWithMargin(p, draw.New(c))
	if c.err != nil {
		return nil, c.err
	}
	c.Pop()
	c.doc.Close()
	var b bytes.Buffer
	if err := c.doc.Output(&b); err != nil {
		return nil, fmt.Errorf("report: writing PDF: %w", err)
	}
	return b.Bytes(), nil
}
