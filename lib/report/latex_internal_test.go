package report

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// wantLaTeX is every character with a LaTeX spelling, written out by hand so
// that a changed or missing entry of latexSymbols fails.
var wantLaTeX = map[rune]string{
	'&': `\&`, '%': `\%`, '$': `\$`, '#': `\#`, '_': `\_`, '{': `\{`, '}': `\}`,
	'~': `\textasciitilde{}`, '^': `\textasciicircum{}`, '\\': `\textbackslash{}`,
	'<': `\textless{}`, '>': `\textgreater{}`, '|': `\textbar{}`,
	'α': `$\alpha$`, 'β': `$\beta$`, 'γ': `$\gamma$`, 'δ': `$\delta$`, 'ε': `$\varepsilon$`,
	'ζ': `$\zeta$`, 'η': `$\eta$`, 'θ': `$\theta$`, 'ι': `$\iota$`, 'κ': `$\kappa$`,
	'λ': `$\lambda$`, 'μ': `$\mu$`, 'ν': `$\nu$`, 'ξ': `$\xi$`, 'π': `$\pi$`, 'ρ': `$\rho$`,
	'σ': `$\sigma$`, 'τ': `$\tau$`, 'υ': `$\upsilon$`, 'φ': `$\varphi$`, 'χ': `$\chi$`,
	'ψ': `$\psi$`, 'ω': `$\omega$`,
	'Γ': `$\Gamma$`, 'Δ': `$\Delta$`, 'Θ': `$\Theta$`, 'Λ': `$\Lambda$`, 'Ξ': `$\Xi$`,
	'Π': `$\Pi$`, 'Σ': `$\Sigma$`, 'Υ': `$\Upsilon$`, 'Φ': `$\Phi$`, 'Ψ': `$\Psi$`, 'Ω': `$\Omega$`,
	'−': `$-$`, '×': `$\times$`, '±': `$\pm$`, '≤': `$\leq$`, '≥': `$\geq$`, '≠': `$\neq$`,
	'≈': `$\approx$`, '→': `$\rightarrow$`, '←': `$\leftarrow$`, '∞': `$\infty$`, '√': `$\surd$`,
	'·': `$\cdot$`, '∩': `$\cap$`, '∪': `$\cup$`, '∈': `$\in$`,
	'–': `--`, '—': `---`, '…': `\ldots{}`, '‘': "`", '’': `'`, '“': "``", '”': `''`,
}

func TestLaTeXSymbolsEntryByEntry(t *testing.T) {
	for r, want := range wantLaTeX {
		got, err := latexEscape("a" + string(r) + "b")
		if err != nil {
			t.Errorf("latexEscape(%q): %v", r, err)
			continue
		}
		if got != "a"+want+"b" {
			t.Errorf("latexEscape(%q) = %q, want %q", "a"+string(r)+"b", got, "a"+want+"b")
		}
	}
	for r := range latexSymbols {
		if _, ok := wantLaTeX[r]; !ok {
			t.Errorf("latexSymbols has %q, which this test does not pin", r)
		}
	}
}

func TestLaTeXEscapeNumbersAndIntervals(t *testing.T) {
	cases := []struct{ in, want string }{
		{"-0.013", "$-$0.013"},
		{"[-0.013, 0.115]", "[$-$0.013, 0.115]"},
		{"(-0.5)", "($-$0.5)"},
		{"x (-0.5, 2)", "x ($-$0.5, 2)"},
		{"E-BM25", "E-BM25"},
		{"a -b", "a -b"},
		{"a, b", "a, b"},
		{"café", "café"},
	}
	for _, c := range cases {
		got, err := latexEscape(c.in)
		if err != nil || got != c.want {
			t.Errorf("latexEscape(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestLaTeXEscapeRefusesUnknownCharacters(t *testing.T) {
	for _, s := range []string{"締切", "☃", "a\x01b"} {
		if _, err := latexEscape(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("latexEscape(%q) error = %v, want ErrInvalid", s, err)
		}
	}
}

func TestTextEm(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want float64
	}{
		{"", 0},
		{"0.674", 4*0.5 + 0.34},
		{"[0.582, 0.763]", 8*0.5 + 6*0.34},
		{"E-BM25", 2*0.75 + 0.34 + 0.85 + 2*0.5},
		{"kagome", 5*0.53 + 0.85},
		{"Δ", 0.8},
		{"β", 0.6},
	} {
		if got := textEm(tc.s); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("textEm(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestLaTeXLayoutShrinksThenBreaksNeverSplitsAWord(t *testing.T) {
	ci := "0.674 [0.582, 0.763]"
	narrow := Table{Number: 1, Columns: []string{"Method", "Recall@5 (95% CI)", "n"}, Rows: [][]string{{"embedding_text_bm25", ci, "100"}}}
	l := narrow.latexLayout(newAbbreviator(nil))
	// Each column as wide as its widest cell or header word, at \small.
	want := (textEm("embedding_text_bm25")+textEm(ci)+textEm("100"))*9*1.02 + 3*2*6
	if l.size.command != `\small` || math.Abs(l.widthPt-want) > 1e-9 {
		t.Errorf("narrow: %s, %v pt; want \\small, %v pt", l.size.command, l.widthPt, want)
	}

	four := Table{Number: 1, Columns: []string{"Method", "Recall@5", "MRR@5", "nDCG@5", "ΔRecall@5"},
		Rows: [][]string{{"E-BM25", ci, ci, ci, "+0.152 [0.066, 0.239]"}}}
	l = four.latexLayout(newAbbreviator(nil))
	em := textEm("E-BM25") + 3*textEm(ci) + textEm("+0.152 [0.066, 0.239]")
	// Unbroken in one tabular, 9·1.02·em + 60, 8·1.06·em + 40 and 7·1.12·em + 30 exceed fitPt;
	// in two column sets (the label, then 2 and 2 values) every interval stays on one line.
	if 7*1.12*em+30 <= fitPt {
		t.Fatalf("fixture fits unbroken: em = %v", em)
	}
	if l.widthPt > fitPt || !slices.EqualFunc(l.parts, [][]int{{0, 1, 2}, {0, 3, 4}}, slices.Equal) {
		t.Errorf("four intervals: %s, %v pt, parts %v; want within %v pt, parts [[0 1 2] [0 3 4]]", l.size.command, l.widthPt, l.parts, fitPt)
	}
	if got := breakWords(ci, l.widthEm[1]); len(got) != 1 {
		t.Errorf("interval cell set as %q, want one line", got)
	}

	prose := Table{Number: 1, Columns: []string{"Comparison", "ΔRecall@5", "95% CI", "Interpretation"}, Rows: [][]string{
		{"Best (E-BM25+E-Vec @0.40) − embedding_text_bm25", "+0.102", "[0.032, 0.175]", "Positive conditional difference; selection uncertainty excluded"},
		{"Best (E-BM25+E-Vec @0.40) − S-hybrid (β = 0.40)", "+0.090", "[0.020, 0.163]", "CI includes 0; inconclusive"},
	}}
	l = prose.latexLayout(newAbbreviator(nil))
	if l.widthPt > fitPt {
		t.Fatalf("prose: %v pt > fitPt", l.widthPt)
	}
	for col := range prose.Columns {
		for _, c := range append([]string{prose.Columns[col]}, prose.columnCells(col)...) {
			lines := breakWords(c, l.widthEm[col])
			if got := strings.Join(lines, " "); got != strings.Join(headerWords(c), " ") {
				t.Errorf("column %d: %q broken into %q", col, c, lines)
			}
			for _, line := range lines {
				if textEm(line) > l.widthEm[col]+1e-9 {
					t.Errorf("column %d: line %q is %v em, wider than %v", col, line, textEm(line), l.widthEm[col])
				}
			}
		}
	}
	if got := breakWords("(E-BM25+E-Vec @0.40)", 1); !slices.Equal(got, []string{"(E-BM25+E-Vec @0.40)"}) {
		t.Errorf("a parenthesised name split: %q", got)
	}
}

func TestHeaderBreaksAtSpacesOutsideParentheses(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width float64
		want  []string
	}{
		{"Recall@5 (95% CI)", 20, []string{"Recall@5 (95% CI)"}},
		{"Recall@5 (95% CI)", textEm("Recall@5"), []string{"Recall@5", "(95% CI)"}},
		{"Chunk R@5 [lo, hi]", textEm("Chunk R@5"), []string{"Chunk R@5", "[lo, hi]"}},
		{"Questions", 1, []string{"Questions"}},
		{"", 5, []string{""}},
	} {
		if got := breakWords(tc.s, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("breakWords(%q, %v) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

func TestColumnSetsRepeatTheLabels(t *testing.T) {
	for _, tc := range []struct {
		columns, labels, n int
		want               [][]int
	}{
		{9, 3, 2, [][]int{{0, 1, 2, 3, 4, 5}, {0, 1, 2, 6, 7, 8}}},
		{8, 2, 2, [][]int{{0, 1, 2, 3, 4}, {0, 1, 5, 6, 7}}},
		{8, 2, 3, [][]int{{0, 1, 2, 3}, {0, 1, 4, 5}, {0, 1, 6, 7}}},
	} {
		got := columnSets(tc.columns, tc.labels, tc.n)
		if len(got) != len(tc.want) {
			t.Fatalf("columnSets(%d, %d, %d) = %v, want %v", tc.columns, tc.labels, tc.n, got, tc.want)
		}
		for i := range got {
			if !slices.Equal(got[i], tc.want[i]) {
				t.Errorf("columnSets(%d, %d, %d) = %v, want %v", tc.columns, tc.labels, tc.n, got, tc.want)
			}
		}
	}
}

func TestLabelColumnsEndAtTheFirstNumericColumn(t *testing.T) {
	for _, tc := range []struct {
		row  []string
		want int
	}{
		{[]string{"overall", "100", "selected hybrid", "0.674 [0.582, 0.763]"}, 3},
		{[]string{"overall", "100", "0.734"}, 1},
		{[]string{"E-BM25", "kagome", "0.627 [0.536, 0.717]", "+0.152 [0.066, 0.239]"}, 2},
		{[]string{"Best − E-BM25", "+0.102", "[0.032, 0.175]", "CI includes 0"}, 1},
		{[]string{"a", "b"}, 1},
	} {
		tab := Table{Number: 1, Columns: make([]string, len(tc.row)), Rows: [][]string{tc.row}}
		if got := tab.labelColumns(); got != tc.want {
			t.Errorf("labelColumns of %q = %d, want %d", tc.row, got, tc.want)
		}
	}
}
