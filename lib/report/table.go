package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
// 10 pt article: \caption, a \label{tab:SLUG} (tab:tableN without a slug),
// and a booktabs tabular (\toprule, \midrule, \bottomrule) whose cells never
// wrap by themselves. The layout is chosen by latexLayout: the largest of
// \small, \footnotesize and \scriptsize at which the table fits, header
// cells broken at spaces outside parentheses to their column's width; then
// the value columns in two or three column sets, each after the row
// labels; then intervals set below their estimates; and only then the
// widest columns narrowed, their cells broken at spaces (a name or number
// never splits). A first-column label repeated
// on consecutive rows (a group, such as a question type or a retriever) is
// printed once, with a little space before each new group. Notes follow in
// \footnotesize and wrap. The document needs \usepackage{booktabs}.
//
// Abbreviations replace long names in cells and notes (longest first), and a
// note lists the ones used; the Markdown and CSV versions keep the full names
// and every row's label.
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
	layout := t.latexLayout(abbrev)
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	b.WriteString(layout.size.command + "\n")
	if layout.size.tabcolsep != defaultTabcolsep {
		fmt.Fprintf(&b, "\\setlength{\\tabcolsep}{%gpt}\n", layout.size.tabcolsep)
	}
	b.WriteString("\\caption{" + caption + "}\n")
	label := t.Slug
	if label == "" {
		label = t.BaseName()
	}
	b.WriteString("\\label{tab:" + label + "}\n")
	spec := make([]byte, len(t.Columns))
	for i := range t.Columns {
		spec[i] = "lcr"[t.alignment(i)]
	}
	// cell escapes a header or body cell (recording the abbreviations it
	// uses) and sets it on the lines its column's width asks for.
	cell := func(col int, c, valign string) (string, error) {
		e, err := esc(c)
		if err != nil {
			return "", err
		}
		lines := breakWords(abbrev.peek(oneLine(c)), layout.widthEm[col])
		if len(lines) == 1 {
			return e, nil
		}
		for j, l := range lines {
			if lines[j], err = latexEscape(l); err != nil {
				return "", fmt.Errorf("report: table %s: %w", t.BaseName(), err)
			}
			lines[j] = guardBracket(lines[j])
		}
		return `\begin{tabular}[` + valign + `]{@{}` + string(spec[col]) + `@{}}` + strings.Join(lines, `\\`) + `\end{tabular}`, nil
	}
	groups := t.hasGroups()
	for p, part := range layout.parts {
		if p > 0 {
			b.WriteString("\n\\medskip\n")
		}
		partSpec := make([]byte, len(part))
		for i, col := range part {
			partSpec[i] = spec[col]
		}
		b.WriteString("\\begin{tabular}{" + string(partSpec) + "}\n\\toprule\n")
		header := make([]string, len(part))
		for i, col := range part {
			if header[i], err = cell(col, t.Columns[col], "b"); err != nil {
				return err
			}
		}
		latexCells(&b, header)
		b.WriteString("\\midrule\n")
		for r, row := range t.Rows {
			cells := make([]string, len(part))
			for i, col := range part {
				if col == 0 && groups && r > 0 && row[0] == t.Rows[r-1][0] {
					continue
				}
				if cells[i], err = cell(col, row[col], "t"); err != nil {
					return err
				}
			}
			if groups && r > 0 && row[0] != t.Rows[r-1][0] {
				b.WriteString("\\addlinespace\n")
			}
			latexCells(&b, cells)
		}
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

// TextWidthPt is the text width of a one-column 10 pt article, in points: the
// width a LaTeX table must fit.
const TextWidthPt = 345.0

// defaultTabcolsep is LaTeX's \tabcolsep, half the space between columns.
const defaultTabcolsep = 6.0

// latexSize is a font size for a table body with its column padding.
type latexSize struct {
	command   string  // \small, …
	fontPt    float64 // its size in a 10 pt article
	tabcolsep float64 // \tabcolsep in points
	// emPt is the width of textEm's em at this size, in points: the font
	// size widened for the optical sizes of Latin Modern, whose 8 and 7 pt
	// designs are wider than the 10 pt one scaled down.
	emPt float64
}

// latexSizes are tried in order; the first at which a table fits is used.
var latexSizes = []latexSize{
	{`\small`, 9, defaultTabcolsep, 9 * 1.02},
	{`\footnotesize`, 8, 4, 8 * 1.06},
	{`\scriptsize`, 7, 3, 7 * 1.12},
}

// latexTableLayout is how WriteLaTeX sets a table: its size, the width of
// each column in em of that size (its cells are broken to it), and the
// column sets it is printed in, one tabular each (usually one, all columns).
type latexTableLayout struct {
	size    latexSize
	widthEm []float64
	parts   [][]int
	widthPt float64 // the estimated width of the widest part
}

// latexLayout chooses the layout of t (see WriteLaTeX), the first of these
// that fits fitPt:
//
//  1. every cell on one line, at \small, \footnotesize or \scriptsize;
//  2. every cell on one line in two column sets: the leading label columns
//     (labelColumns) repeated before each half of the value columns, two
//     tabulars one below the other, at \footnotesize or \scriptsize, when
//     the labels take at most half of fitPt;
//  3. each "estimate [lo, hi]" cell as its estimate over its interval, at
//     \footnotesize or \scriptsize, in one tabular, then in two or three
//     column sets;
//  4. at \scriptsize, in one tabular, then in two or three column sets
//     (labels repeated, whatever their width), the columns whose
//     cells hold more than one word narrowed, each by its share (by width)
//     of what the table is too wide, never below its widest word, their
//     cells broken to it, until the table fits or none can be narrowed (the
//     narrowest result when none fits).
//
// A column's width is its widest cell (textEm, after abbreviation) and the
// widest word of its header (headerWords), whose header is broken to it; a
// part is Σ its column widths × the size's emPt + 2 × tabcolsep per column.
func (t Table) latexLayout(abbrev *abbreviator) latexTableLayout {
	natural, minimal := t.columnEm(abbrev)
	intervals := t.intervalEm(abbrev, natural)
	all := make([]int, len(t.Columns))
	for i := range all {
		all[i] = i
	}
	fit := func(size latexSize, widths []float64, parts [][]int) latexTableLayout {
		l := latexTableLayout{size: size, widthEm: widths, parts: parts}
		for _, part := range parts {
			pt := 0.0
			for _, col := range part {
				pt += widths[col]*size.emPt + 2*size.tabcolsep
			}
			l.widthPt = max(l.widthPt, pt)
		}
		return l
	}
	for _, size := range latexSizes {
		if l := fit(size, natural, [][]int{all}); l.widthPt <= fitPt {
			return l
		}
	}
	labels := t.labelColumns()
	sets := func(size latexSize, widths []float64, most int) (latexTableLayout, bool) {
		if fit(size, widths, [][]int{all[:labels]}).widthPt > fitPt/2 {
			return latexTableLayout{}, false
		}
		for n := 2; n <= most && len(t.Columns)-labels >= n; n++ {
			if l := fit(size, widths, columnSets(len(t.Columns), labels, n)); l.widthPt <= fitPt {
				return l, true
			}
		}
		return latexTableLayout{}, false
	}
	for _, size := range latexSizes[1:] {
		if l, ok := sets(size, natural, 2); ok {
			return l
		}
	}
	for _, size := range latexSizes[1:] {
		if l := fit(size, intervals, [][]int{all}); l.widthPt <= fitPt {
			return l
		}
	}
	for _, size := range latexSizes[1:] {
		if l, ok := sets(size, intervals, 3); ok {
			return l
		}
	}
	size := latexSizes[len(latexSizes)-1]
	options := [][][]int{{all}}
	for n := 2; n <= 3 && len(t.Columns)-labels >= n; n++ {
		options = append(options, columnSets(len(t.Columns), labels, n))
	}
	var best latexTableLayout
	for _, parts := range options {
		widths := slices.Clone(intervals)
		narrowest := slices.Clone(minimal)
		l := fit(size, widths, parts)
		for l.widthPt > fitPt {
			breakable := 0.0
			for i, w := range widths {
				if w > narrowest[i]+1e-9 {
					breakable += w
				}
			}
			if breakable == 0 {
				break
			}
			excess := (l.widthPt - fitPt) / size.emPt
			for i, w := range widths {
				if w <= narrowest[i]+1e-9 {
					continue
				}
				narrower := t.brokenEm(abbrev, i, max(narrowest[i], w-excess*w/breakable))
				if narrower >= w-1e-9 {
					narrowest[i] = w
					continue
				}
				widths[i] = narrower
			}
			l = fit(size, widths, parts)
		}
		if l.widthPt <= fitPt {
			return l
		}
		if best.parts == nil || l.widthPt < best.widthPt {
			best = l
		}
	}
	return best
}

// fitPt is the width latexLayout fits tables to: TextWidthPt less a tenth,
// the margin by which textEm's estimate has fallen short of pdflatex's
// measure (Latin Modern; math minus signs and Greek letters are wider than
// the estimate's).
const fitPt = 0.9 * TextWidthPt

// labelColumns is the number of leading columns that name a row rather
// than hold a value: those before the first column with an "estimate [lo,
// hi]" cell, or, in a table without one, before the first column whose
// every non-empty body cell starts like a number (a digit, a sign, "[" or
// "−"). At least one column is a label and one a value, when the table has
// two.
func (t Table) labelColumns() int {
	for col := range t.Columns {
		for _, row := range t.Rows {
			if _, _, ok := splitInterval(row[col]); ok {
				return min(max(col, 1), len(t.Columns)-1)
			}
		}
	}
	for col := range t.Columns {
		numeric, seen := true, false
		for _, row := range t.Rows {
			c := strings.TrimSpace(row[col])
			if c == "" || c == "--" || c == "–" {
				continue
			}
			seen = true
			r, _ := utf8.DecodeRuneInString(c)
			if !(r >= '0' && r <= '9' || strings.ContainsRune("+-−[.", r)) {
				numeric = false
				break
			}
		}
		if numeric && seen {
			return min(max(col, 1), len(t.Columns)-1)
		}
	}
	return min(1, len(t.Columns)-1)
}

// columnSets returns n sets of columns: the first labels columns, then the
// next share of the value columns, shares as equal as they go (the first
// ones one larger).
func columnSets(columns, labels, n int) [][]int {
	values := columns - labels
	var sets [][]int
	next := labels
	for p := 0; p < n; p++ {
		share := values / n
		if p < values%n {
			share++
		}
		set := make([]int, 0, labels+share)
		for c := 0; c < labels; c++ {
			set = append(set, c)
		}
		for c := next; c < next+share; c++ {
			set = append(set, c)
		}
		next += share
		sets = append(sets, set)
	}
	return sets
}

// intervalEm is each column's width when every "estimate [lo, hi]" cell
// is set as its estimate over its interval (natural widths otherwise).
func (t Table) intervalEm(abbrev *abbreviator, natural []float64) []float64 {
	widths := make([]float64, len(t.Columns))
	for i, h := range t.Columns {
		for _, w := range headerWords(abbrev.peek(oneLine(h))) {
			widths[i] = max(widths[i], textEm(w))
		}
		for _, row := range t.Rows {
			c := abbrev.peek(oneLine(row[i]))
			if est, iv, ok := splitInterval(c); ok {
				widths[i] = max(widths[i], textEm(est), textEm(iv))
			} else {
				widths[i] = max(widths[i], textEm(c))
			}
		}
		widths[i] = min(widths[i], natural[i])
	}
	return widths
}

// splitInterval splits "0.674 [0.582, 0.763]" into its estimate and its
// bracketed interval.
func splitInterval(c string) (estimate, interval string, ok bool) {
	i := strings.Index(c, " [")
	if i <= 0 || !strings.HasSuffix(c, "]") || strings.Contains(c[:i], " ") {
		return "", "", false
	}
	return c[:i], c[i+1:], true
}

// unbrokenEm is the width up to which a body cell is never broken: short
// phrases such as "14 of 20" or "yes (0.584)" stay on one line.
const unbrokenEm = 6.0

// columnEm returns each column's natural width (its widest cell; a header
// counts by its widest word) and its minimal width (its widest word, or its
// widest cell of at most unbrokenEm).
func (t Table) columnEm(abbrev *abbreviator) (natural, minimal []float64) {
	natural = make([]float64, len(t.Columns))
	minimal = make([]float64, len(t.Columns))
	for i, h := range t.Columns {
		for _, w := range headerWords(abbrev.peek(oneLine(h))) {
			natural[i] = max(natural[i], textEm(w))
			minimal[i] = max(minimal[i], textEm(w))
		}
		for _, row := range t.Rows {
			c := abbrev.peek(oneLine(row[i]))
			natural[i] = max(natural[i], textEm(c))
			if textEm(c) <= unbrokenEm {
				minimal[i] = max(minimal[i], textEm(c))
				continue
			}
			for _, w := range headerWords(c) {
				minimal[i] = max(minimal[i], textEm(w))
			}
		}
	}
	return natural, minimal
}

// brokenEm is the width column col takes when its cells are broken to
// width em: its widest line.
func (t Table) brokenEm(abbrev *abbreviator, col int, width float64) float64 {
	widest := 0.0
	for _, s := range append([]string{t.Columns[col]}, t.columnCells(col)...) {
		for _, line := range breakWords(abbrev.peek(oneLine(s)), width) {
			widest = max(widest, textEm(line))
		}
	}
	return widest
}

func (t Table) columnCells(col int) []string {
	cells := make([]string, len(t.Rows))
	for r, row := range t.Rows {
		cells[r] = row[col]
	}
	return cells
}

// textEm estimates the width of s in em of Computer Modern Roman: digits
// and most lower-case letters ½ em, capitals ¾, narrow letters and
// punctuation about ⅓, wide ones (m, w, @, %) and math signs (+ = − × Δ)
// ⅘, anything else 0.6 (rounded up from the font's metrics, so that an
// estimate that fits does fit).
func textEm(s string) float64 {
	em := 0.0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			em += 0.5
		case strings.ContainsRune("mwMW@%", r):
			em += 0.85
		case strings.ContainsRune("+=−<>×Δ", r):
			em += 0.8
		case r >= 'A' && r <= 'Z':
			em += 0.75
		case strings.ContainsRune("ijlft", r):
			em += 0.33
		case r >= 'a' && r <= 'z':
			em += 0.53
		case strings.ContainsRune(" .,;:!'()[]|-", r):
			em += 0.34
		default:
			em += 0.6
		}
	}
	return em
}

// headerWords splits a cell at spaces outside parentheses and brackets, so
// that "(95% CI)" and "[0.582, 0.763]" stay on one line; a parenthesised
// phrase wider than 2 × unbrokenEm is split at its spaces too (an interval
// never is).
func headerWords(s string) []string {
	var words []string
	depth, start := 0, -1
	for i, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		}
		if r == ' ' && depth == 0 {
			if start >= 0 {
				words = append(words, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	var out []string
	for _, w := range words {
		if textEm(w) > 2*unbrokenEm && strings.Contains(w, " ") && !isInterval(w) {
			out = append(out, strings.Fields(w)...)
			continue
		}
		out = append(out, w)
	}
	return out
}

// isInterval reports whether w is a bracketed interval such as "[0.582,
// 0.763]", which never splits.
func isInterval(w string) bool {
	return strings.HasPrefix(w, "[") && strings.HasSuffix(w, "]") && strings.Count(w, " ") == 1
}

// breakWords splits s into lines of headerWords at most width em wide
// (textEm), greedily; a wider word is a line of its own.
func breakWords(s string, width float64) []string {
	var lines []string
	for _, word := range headerWords(s) {
		if n := len(lines); n > 0 && textEm(lines[n-1]+" "+word) <= width+1e-9 {
			lines[n-1] += " " + word
			continue
		}
		lines = append(lines, word)
	}
	if len(lines) == 0 {
		return []string{s}
	}
	return lines
}

// hasGroups reports whether some first-column label repeats on
// consecutive rows, so that WriteLaTeX prints each group's label once.
func (t Table) hasGroups() bool {
	for r := 1; r < len(t.Rows); r++ {
		if t.Rows[r][0] != "" && t.Rows[r][0] == t.Rows[r-1][0] {
			return true
		}
	}
	return false
}

// latexCells writes one row of escaped cells.
func latexCells(b *bytes.Buffer, cells []string) {
	for i, c := range cells {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(guardBracket(c))
	}
	b.WriteString(" \\\\\n")
}

// guardBracket keeps a cell that starts with "[" from being read as an
// optional argument of the preceding \\ or rule.
func guardBracket(e string) string {
	if strings.HasPrefix(e, "[") {
		return "{}" + e
	}
	return e
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
