package report

import (
	"errors"
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

func TestLaTeXColumnsWrapOnlyTablesTooWideForThePage(t *testing.T) {
	ci := "0.674 [0.582, 0.763]"
	narrow := Table{Number: 1, Columns: []string{"Method", "Recall@5", "n"}, Align: []Alignment{AlignLeft, AlignLeft, AlignRight},
		Rows: [][]string{{"embedding_text_bm25", ci, "100"}}}
	// (19 + 20 + 3) characters × 4.5 pt + 3 × 12 pt = 225 pt ≤ TextWidthPt.
	if spec, wraps := narrow.latexColumns(newAbbreviator(nil)); spec != "llr" || wraps {
		t.Errorf("narrow table: latexColumns = %q, %v; want \"llr\", false", spec, wraps)
	}
	wide := Table{Number: 1, Columns: []string{"Method", "Recall@5", "MRR@5", "nDCG@5", "n"},
		Align: []Alignment{AlignLeft, AlignLeft, AlignLeft, AlignLeft, AlignRight},
		Rows:  [][]string{{"summary_bm25 with kagome", ci, ci, ci, "100"}}}
	// (24 + 3 × 20 + 3) × 4.5 + 5 × 12 = 451.5 pt > TextWidthPt: every text column wraps.
	want := wrapColumn + wrapColumn + wrapColumn + wrapColumn + "r"
	if spec, wraps := wide.latexColumns(newAbbreviator(nil)); spec != want || !wraps {
		t.Errorf("wide table: latexColumns = %q, %v; want %q, true", spec, wraps, want)
	}
	// A name without spaces cannot wrap, so it stays an l column.
	wide.Rows[0][0] = "hybrid:E-BM25+E-Vec@0.40"
	want = "l" + wrapColumn + wrapColumn + wrapColumn + "r"
	if spec, _ := wide.latexColumns(newAbbreviator(nil)); spec != want {
		t.Errorf("unbreakable name: latexColumns = %q, want %q", spec, want)
	}
}
