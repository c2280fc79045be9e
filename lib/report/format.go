package report

import (
	"math"
	"strconv"
)

// F3 formats x with three decimals, as the paper prints metrics: 0.427.
// It rounds the exact binary value of x to the nearest decimal, ties to
// even (strconv): F3(0.4265) is "0.426" because 0.4265 is stored as
// 0.42649999….
// NaN and infinities are written as strconv writes them ("NaN", "+Inf").
// A value that rounds to zero is written "0.000", never "-0.000".
func F3(x float64) string {
	return fixed(x, 3)
}

// CI3 formats a confidence interval as "[lo, hi]" with three decimals each,
// for example "[0.335, 0.520]" or "[-0.013, 0.115]".
func CI3(lo, hi float64) string {
	return "[" + F3(lo) + ", " + F3(hi) + "]"
}

// Signed3 formats a difference with an explicit sign and three decimals:
// "+0.113", "-0.013". The minus sign is the ASCII hyphen-minus in every
// output format, so CSV cells parse as numbers; the LaTeX writer typesets a
// leading hyphen-minus of a number as a math minus. A value that rounds to
// zero is written "0.000" without a sign.
func Signed3(x float64) string {
	s := F3(x)
	if math.IsNaN(x) || s == "0.000" || s[0] == '-' || s[0] == '+' {
		return s
	}
	return "+" + s
}

// Percent1 formats a fraction as a percentage with one decimal:
// Percent1(6.0/34) == "17.6%". x is a fraction (0.176), not a percentage.
func Percent1(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return fixed(100*x, 1) + "%"
}

// fixed formats x with prec decimals, mapping a rounded negative zero to an
// unsigned zero.
func fixed(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if r, err := strconv.ParseFloat(s, 64); err == nil && r == 0 && s[0] == '-' {
		return s[1:]
	}
	return s
}
