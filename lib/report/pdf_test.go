package report_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linemem/linemem/lib/report"
)

// TestPDFIsReproducibleWithEmbeddedUnicodeText renders every figure as PDF
// twice and wants the same bytes, an embedded TrueType font with a Unicode
// map, and (when poppler's pdftotext is installed) every text the figure
// must show, β and Δ included, extractable from the page.
func TestPDFIsReproducibleWithEmbeddedUnicodeText(t *testing.T) {
	pdftotext, _ := exec.LookPath("pdftotext")
	for _, c := range figureCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.build()
			if err != nil {
				t.Fatal(err)
			}
			first, err := report.RenderPDF(p, report.ColumnWidth, report.ColumnHeight)
			if err != nil {
				t.Fatal(err)
			}
			again, err := report.RenderPDF(p, report.ColumnWidth, report.ColumnHeight)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, again) {
				t.Error("two renderings of the same plot differ")
			}
			for _, want := range []string{"%PDF-", "/FontFile2", "/ToUnicode", "/MediaBox [0 0 237.60 187.20]"} {
				if !bytes.Contains(first, []byte(want)) {
					t.Errorf("PDF lacks %q", want)
				}
			}
			if pdftotext == "" {
				t.Skip("no pdftotext (poppler-utils) to read the text back")
			}
			path := filepath.Join(t.TempDir(), c.name+".pdf")
			if err := os.WriteFile(path, first, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(pdftotext, path, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(string(out)), " ")
			for _, s := range c.texts {
				s = strings.Trim(s, "<>")
				if !strings.Contains(text, strings.Join(strings.Fields(s), " ")) {
					t.Errorf("PDF text lacks %q:\n%s", s, text)
				}
			}
		})
	}
}
