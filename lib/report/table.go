package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrNoData is returned when a table has no columns or a figure has nothing
// to draw.
var ErrNoData = errors.New("report: no data")

// ErrInvalid is wrapped by errors that describe malformed input: a row of the
// wrong length, a bad slug, a non-finite or out-of-range value.
var ErrInvalid = errors.New("report: invalid input")

// Alignment is the horizontal alignment of a table column.
type Alignment int

// Column alignments. The zero value is AlignLeft.
const (
	AlignLeft Alignment = iota
	AlignCenter
	AlignRight
)

// Table is one table of the paper, held as display strings. Numbers are
// formatted by the caller (see F3, CI3, Signed3 and Percent1), so the three
// output formats show exactly the same cell text, up to escaping.
type Table struct {
	// Number is the table's number in the paper (Table 3 → 3); 0 marks a
	// table the paper does not number, which then needs a Slug and is
	// written under the slug alone, without "Table N:".
	Number int
	// Slug names the table in file names and LaTeX labels; lower-case ASCII
	// letters, digits and underscores, or empty.
	Slug string
	// Caption is the title printed above the table, without "Table N:".
	Caption string
	// Columns holds the header cells; at least one.
	Columns []string
	// Align holds one alignment per column; nil means every column is
	// left-aligned.
	Align []Alignment
	// Rows holds the body, each row with exactly len(Columns) cells. A table
	// may have no rows; it is then written with its header only.
	Rows [][]string
	// Notes are printed below the table, one paragraph each.
	Notes []string
	// Abbreviations shorten long names in the LaTeX version only (see
	// WriteLaTeX); nil means none.
	Abbreviations []Abbreviation
}

// Validate reports whether t can be written. Errors wrap ErrNoData when t has
// no columns and ErrInvalid otherwise.
func (t Table) Validate() error {
	if t.Number < 0 || (t.Number == 0 && t.Slug == "") {
		return fmt.Errorf("report: table number %d (0 only with a slug): %w", t.Number, ErrInvalid)
	}
	if err := checkSlug(t.Slug); err != nil {
		return err
	}
	if len(t.Columns) == 0 {
		return fmt.Errorf("report: table %d has no columns: %w", t.Number, ErrNoData)
	}
	if t.Align != nil && len(t.Align) != len(t.Columns) {
		return fmt.Errorf("report: table %d: %d alignments for %d columns: %w",
			t.Number, len(t.Align), len(t.Columns), ErrInvalid)
	}
	for _, a := range t.Align {
		if a < AlignLeft || a > AlignRight {
			return fmt.Errorf("report: table %d: alignment %d: %w", t.Number, a, ErrInvalid)
		}
	}
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("report: table %d: row %d has %d cells, want %d: %w",
				t.Number, i+1, len(row), len(t.Columns), ErrInvalid)
		}
	}
	return nil
}

// BaseName returns the file name without extension, "table3_single_retrievers"
// for Number 3 and Slug "single_retrievers", "table3" without a slug, and the
// slug alone for an unnumbered table.
func (t Table) BaseName() string {
	if t.Number == 0 {
		return t.Slug
	}
	return baseName("table", t.Number, t.Slug)
}

// FigureBaseName returns the file name without extension of the paper's
// figure number n: "figure1_single_retrievers", or "figure1" when slug is
// empty. It panics if n is not positive or slug is malformed, since both are
// fixed by the caller's code.
func FigureBaseName(n int, slug string) string {
	if n <= 0 {
		panic("report: figure number must be positive")
	}
	if err := checkSlug(slug); err != nil {
		panic(err)
	}
	return baseName("figure", n, slug)
}

func baseName(kind string, n int, slug string) string {
	b := kind + strconv.Itoa(n)
	if slug != "" {
		b += "_" + slug
	}
	return b
}

// checkSlug accepts the empty string and lower-case ASCII letters, digits and
// underscores.
func checkSlug(slug string) error {
	for _, r := range slug {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return fmt.Errorf("report: slug %q: want lower-case letters, digits and '_': %w", slug, ErrInvalid)
		}
	}
	return nil
}

// WriteCSV writes the header row and the body rows, quoted as RFC 4180
// prescribes (encoding/csv). Records end in "\n", the encoding/csv default.
// Caption and notes are not part of the CSV, which holds data only.
func (t Table) WriteCSV(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteMarkdown writes a GitHub-flavoured pipe table preceded by the caption
// as a bold line, "**Table 3: Single retriever performance**", and followed
// by the notes, one paragraph each. "|" in cells is escaped as "\|" and line
// breaks in cells become spaces; other text passes through unchanged, so a
// cell may hold inline Markdown such as **0.697**.
func (t Table) WriteMarkdown(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	var b bytes.Buffer
	switch {
	case t.Number == 0:
		b.WriteString("**" + oneLine(t.Caption))
	case t.Caption != "":
		fmt.Fprintf(&b, "**Table %d: %s", t.Number, oneLine(t.Caption))
	default:
		fmt.Fprintf(&b, "**Table %d", t.Number)
	}
	b.WriteString("**\n\n")
	t.markdownBody(&b)
	_, err := w.Write(b.Bytes())
	return err
}

// WriteMarkdownBody writes the table as WriteMarkdown does, without the
// caption line: the grid and the notes. It checks only that every row has
// one cell per column, so a table shown once needs no number or slug.
func (t Table) WriteMarkdownBody(w io.Writer) error {
	if len(t.Columns) == 0 {
		return fmt.Errorf("report: table has no columns: %w", ErrNoData)
	}
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return fmt.Errorf("report: row %d has %d cells, want %d: %w", i+1, len(row), len(t.Columns), ErrInvalid)
		}
	}
	var b bytes.Buffer
	t.markdownBody(&b)
	_, err := w.Write(b.Bytes())
	return err
}

func (t Table) markdownBody(b *bytes.Buffer) {
	markdownRow(b, t.Columns)
	b.WriteString("|")
	for i := range t.Columns {
		switch t.alignment(i) {
		case AlignCenter:
			b.WriteString(" :---: |")
		case AlignRight:
			b.WriteString(" ---: |")
		default:
			b.WriteString(" :--- |")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		markdownRow(b, row)
	}
	for _, n := range t.Notes {
		b.WriteString("\n" + oneLine(n) + "\n")
	}
}

func markdownRow(b *bytes.Buffer, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + strings.ReplaceAll(oneLine(c), "|", `\|`) + " |")
	}
	b.WriteString("\n")
}

// WriteLaTeX writes a floating table environment that fits a one-column
// 10 pt article: \caption, a \label{tab:SLUG} (tab:tableN without a slug), the
// body in \small (\footnotesize, 8 pt, with \tabcolsep 4 pt, from
// WideColumns columns on), and a
// booktabs tabular (\toprule, \midrule, \bottomrule). A table too wide for
// TextWidthPt becomes a tabularx spanning \linewidth whose left-aligned text
// columns wrap (see latexColumns); otherwise the tabular keeps its natural
// width. Notes follow in \footnotesize and wrap.
// The document needs \usepackage{booktabs} and \usepackage{tabularx}.
//
// Abbreviations replace long names in cells and notes (longest first), and a
// note lists the ones used; the Markdown and CSV versions keep the full names.
//
// Every character is escaped through latexSymbols: the specials & % $ # _ { }
// ~ ^ \ and < > | become their text-mode commands, Greek letters and math
// symbols become math-mode commands, and a hyphen-minus that starts a number
// ("-0.013" in "[-0.013, 0.115]" or "(-0.5)") is typeset as a math minus. A
// space after a comma inside brackets is unbreakable, so an interval
// "[0.582, 0.763]" never splits across lines. A cell that starts with "[" is
// guarded with "{}" so that LaTeX does not read it as an optional argument of
// the preceding \\ or rule. A character that is neither ASCII, Latin-1 nor in
// latexSymbols is an error wrapping ErrInvalid, since T1 cannot typeset it.
func (t Table) WriteLaTeX(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	abbrev := newAbbreviator(t.Abbreviations)
	esc := func(s string) (string, error) {
		e, err := latexEscape(abbrev.apply(oneLine(s)))
		if err != nil {
			return "", fmt.Errorf("report: table %s: %w", t.BaseName(), err)
		}
		return e, nil
	}
	var b bytes.Buffer
	caption, err := esc(t.Caption)
	if err != nil {
		return err
	}
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	if len(t.Columns) >= WideColumns {
		b.WriteString("\\footnotesize\n\\setlength{\\tabcolsep}{4pt}\n")
	} else {
		b.WriteString("\\small\n")
	}
	b.WriteString("\\caption{" + caption + "}\n")
	label := t.Slug
	if label == "" {
		label = t.BaseName()
	}
	b.WriteString("\\label{tab:" + label + "}\n")
	spec, wraps := t.latexColumns(abbrev)
	if wraps {
		b.WriteString("\\begin{tabularx}{\\linewidth}{" + spec + "}\n")
	} else {
		b.WriteString("\\begin{tabular}{" + spec + "}\n")
	}
	b.WriteString("\\toprule\n")
	if err := latexRow(&b, t.Columns, esc); err != nil {
		return err
	}
	b.WriteString("\\midrule\n")
	for _, row := range t.Rows {
		if err := latexRow(&b, row, esc); err != nil {
			return err
		}
	}
	if wraps {
		b.WriteString("\\bottomrule\n\\end{tabularx}\n")
	} else {
		b.WriteString("\\bottomrule\n\\end{tabular}\n")
	}
	notes := make([]string, 0, len(t.Notes)+1)
	for _, n := range t.Notes {
		e, err := esc(n)
		if err != nil {
			return err
		}
		notes = append(notes, e)
	}
	if legend := abbrev.legend(); legend != "" {
		e, err := latexEscape(legend)
		if err != nil {
			return fmt.Errorf("report: table %s: %w", t.BaseName(), err)
		}
		notes = append(notes, e)
	}
	if len(notes) > 0 {
		b.WriteString("\n\\smallskip\n{\\footnotesize\n")
		for _, n := range notes {
			b.WriteString(n + "\\par\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("\\end{table}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// WideColumns is the column count from which a LaTeX table is set in
// \footnotesize (8 pt in a 10 pt article) instead of \small (9 pt).
const WideColumns = 6

// TextWidthPt is the text width of a one-column 10 pt article, in points: the
// width a LaTeX table must fit.
const TextWidthPt = 345.0

// wrapColumn is the tabularx column type of a wrapping column: ragged right,
// so that short words do not stretch, with \\ still ending the row.
const wrapColumn = `>{\raggedright\arraybackslash}X`

// latexColumns returns the column specification and whether any column
// wraps. A table whose estimated natural width exceeds TextWidthPt turns
// every left-aligned column with a space in some cell into a wrapping X
// column; the estimate takes each character as half the font size wide
// (the width of a digit) plus the column padding (12 pt, or 8 pt in a
// \footnotesize table, whose \tabcolsep is 4 pt).
func (t Table) latexColumns(abbrev *abbreviator) (string, bool) {
	charPt, padPt := 4.5, 12.0 // \small, 2 × the default \tabcolsep
	if len(t.Columns) >= WideColumns {
		charPt, padPt = 4.0, 8.0 // \footnotesize, \tabcolsep 4pt
	}
	width := 0.0
	for i := range t.Columns {
		width += float64(t.longestCell(i, abbrev))*charPt + padPt
	}
	var spec strings.Builder
	wraps := false
	for i := range t.Columns {
		a := t.alignment(i)
		if width > TextWidthPt && a == AlignLeft && t.hasSpace(i, abbrev) {
			spec.WriteString(wrapColumn)
			wraps = true
			continue
		}
		spec.WriteByte("lcr"[a])
	}
	return spec.String(), wraps
}

func (t Table) longestCell(col int, abbrev *abbreviator) int {
	longest := utf8.RuneCountInString(abbrev.peek(t.Columns[col]))
	for _, row := range t.Rows {
		longest = max(longest, utf8.RuneCountInString(abbrev.peek(row[col])))
	}
	return longest
}

func (t Table) hasSpace(col int, abbrev *abbreviator) bool {
	for _, row := range t.Rows {
		if strings.Contains(abbrev.peek(row[col]), " ") {
			return true
		}
	}
	return false
}

func latexRow(b *bytes.Buffer, cells []string, esc func(string) (string, error)) error {
	for i, c := range cells {
		if i > 0 {
			b.WriteString(" & ")
		}
		e, err := esc(c)
		if err != nil {
			return err
		}
		if strings.HasPrefix(e, "[") {
			e = "{}" + e
		}
		b.WriteString(e)
	}
	b.WriteString(" \\\\\n")
	return nil
}

// latexSymbols maps characters to their LaTeX spelling in text mode. It is
// the only place where a character outside ASCII and Latin-1 gets a spelling.
var latexSymbols = map[rune]string{
	'&':  `\&`,
	'%':  `\%`,
	'$':  `\$`,
	'#':  `\#`,
	'_':  `\_`,
	'{':  `\{`,
	'}':  `\}`,
	'~':  `\textasciitilde{}`,
	'^':  `\textasciicircum{}`,
	'\\': `\textbackslash{}`,
	'<':  `\textless{}`,
	'>':  `\textgreater{}`,
	'|':  `\textbar{}`,
	// Greek letters (spec and paper symbols: β, λ, γ, Δ, Σ, κ …).
	'α': `$\alpha$`, 'β': `$\beta$`, 'γ': `$\gamma$`, 'δ': `$\delta$`,
	'ε': `$\varepsilon$`, 'ζ': `$\zeta$`, 'η': `$\eta$`, 'θ': `$\theta$`,
	'ι': `$\iota$`, 'κ': `$\kappa$`, 'λ': `$\lambda$`, 'μ': `$\mu$`,
	'ν': `$\nu$`, 'ξ': `$\xi$`, 'π': `$\pi$`, 'ρ': `$\rho$`,
	'σ': `$\sigma$`, 'τ': `$\tau$`, 'υ': `$\upsilon$`, 'φ': `$\varphi$`,
	'χ': `$\chi$`, 'ψ': `$\psi$`, 'ω': `$\omega$`,
	'Γ': `$\Gamma$`, 'Δ': `$\Delta$`, 'Θ': `$\Theta$`, 'Λ': `$\Lambda$`,
	'Ξ': `$\Xi$`, 'Π': `$\Pi$`, 'Σ': `$\Sigma$`, 'Υ': `$\Upsilon$`,
	'Φ': `$\Phi$`, 'Ψ': `$\Psi$`, 'Ω': `$\Omega$`,
	// Mathematical symbols and punctuation.
	'−': `$-$`,
	'×': `$\times$`,
	'±': `$\pm$`,
	'≤': `$\leq$`,
	'≥': `$\geq$`,
	'≠': `$\neq$`,
	'≈': `$\approx$`,
	'→': `$\rightarrow$`,
	'←': `$\leftarrow$`,
	'∞': `$\infty$`,
	'√': `$\surd$`,
	'·': `$\cdot$`,
	'∩': `$\cap$`,
	'∪': `$\cup$`,
	'∈': `$\in$`,
	'–': `--`,
	'—': `---`,
	'…': `\ldots{}`,
	'‘': "`",
	'’': `'`,
	'“': "``",
	'”': `''`,
}

// latexEscape spells s for LaTeX text mode (see WriteLaTeX).
func latexEscape(s string) (string, error) {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if r == '-' && startsNumber(rs, i) {
			b.WriteString("$-$")
			continue
		}
		if e, ok := latexSymbols[r]; ok {
			b.WriteString(e)
			continue
		}
		if r > 0xFF || r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0 {
			return "", fmt.Errorf("character %q (U+%04X) has no LaTeX spelling; add it to latexSymbols: %w", r, r, ErrInvalid)
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// startsNumber reports whether the hyphen-minus at rs[i] is the sign of a
// number: followed by a digit and at the start of the text or after a space,
// "[" or "(".
func startsNumber(rs []rune, i int) bool {
	if i+1 >= len(rs) || rs[i+1] < '0' || rs[i+1] > '9' {
		return false
	}
	return i == 0 || rs[i-1] == ' ' || rs[i-1] == '[' || rs[i-1] == '('
}

// oneLine replaces line breaks with spaces; Markdown table cells and LaTeX
// captions cannot hold them.
func oneLine(s string) string {
	return lineBreaks.Replace(s)
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

func (t Table) alignment(i int) Alignment {
	if t.Align == nil {
		return AlignLeft
	}
	return t.Align[i]
}

// WriteFiles writes t as BaseName().csv, .md and .tex into dir, creating dir
// if needed, and returns the paths written in that order. Nothing is written
// when t is invalid.
func (t Table) WriteFiles(dir string) ([]string, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	writers := []struct {
		ext   string
		write func(io.Writer) error
	}{
		{".csv", t.WriteCSV},
		{".md", t.WriteMarkdown},
		{".tex", t.WriteLaTeX},
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range writers {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			return paths, err
		}
		path := filepath.Join(dir, t.BaseName()+f.ext)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
