package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestRowLabelsStackWhenNarrow checks when a row figure moves its labels
// above the rows: only when the widest label takes more than
// maxRowLabelShare of the drawing width, and then the saved figure is at
// least stackedRowPitch per row plus stackedOverhead tall.
func TestRowLabelsStackWhenNarrow(t *testing.T) {
	long := "named_entity · embedding_text_bm25 · citation recall"
	items := func(label string, n int) []LabeledCI {
		var out []LabeledCI
		for i := 0; i < n; i++ {
			out = append(out, LabeledCI{Label: label, Value: 0.5, Lo: 0.4, Hi: 0.6})
		}
		return out
	}
	cases := []struct {
		name       string
		label      string
		rows       int
		width      vg.Length
		stacked    bool
		wantHeight vg.Length
	}{
		{"short labels, one column", "E-BM25", 5, ColumnWidth, false, ColumnHeight},
		{"long labels, text width", long, 16, DefaultWidth, false, DefaultHeight},
		{"long labels, one column, few rows", long, 2, ColumnWidth, true, ColumnHeight},
		{"long labels, one column, many rows", long, 16, ColumnWidth, true, 16*stackedRowPitch + stackedOverhead},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := PointsWithCI("", "Recall@5", items(c.label, c.rows))
			if err != nil {
				t.Fatal(err)
			}
			height := DefaultHeight
			if c.width == ColumnWidth {
				height = ColumnHeight
			}
			got := rowsToStack(p, c.width-2*figureMargin) != nil
			if got != c.stacked {
				t.Fatalf("stacked = %v, want %v", got, c.stacked)
			}
			dir := t.TempDir()
			paths, err := SaveFigure(p, dir, "rows", c.width, height)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "rows.png"))
			if err != nil || paths[0] != filepath.Join(dir, "rows.png") {
				t.Fatal(err, paths)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			wantPx := int(float64(c.wantHeight/vg.Inch)*PNGDPI + 0.5)
			if cfg.Height != wantPx {
				t.Errorf("PNG height %d px, want %d (%v)", cfg.Height, wantPx, c.wantHeight)
			}
		})
	}
}

// TestStackedRowsLeavesThePlot checks that drawing stacked labels changes
// a copy: the plot still has its labels on the y axis afterwards.
func TestStackedRowsLeavesThePlot(t *testing.T) {
	p, err := PointsWithCI("", "Recall@5", []LabeledCI{{Label: "named_entity · embedding_text_bm25 · citation recall", Value: 0.5, Lo: 0.4, Hi: 0.6}})
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsToStack(p, ColumnWidth)
	if rows == nil {
		t.Fatal("a label this long at one column's width must stack")
	}
	q := stackedRows(p, rows)
	if got := q.Y.Tick.Marker.(rowTicks)[0].Label; got != "" {
		t.Errorf("copy keeps y label %q, want none", got)
	}
	if got := p.Y.Tick.Marker.(rowTicks)[0].Label; got != rows[0].Label {
		t.Errorf("original's y label is %q, want %q", got, rows[0].Label)
	}
}
