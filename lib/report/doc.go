// Package report renders the paper's artefacts to files: every table as CSV,
// Markdown and LaTeX (booktabs), every figure as PNG and SVG, and small JSON
// records such as manifest.json.
//
// The package takes plain data (strings for table cells, float64 slices for
// figures) and holds no evaluation logic: callers compute metrics and
// confidence intervals elsewhere and pass the numbers in. File names follow
// spec §12: tableN[_slug].{csv,md,tex} and figureN[_slug].{png,svg}, with N
// the number of the table or figure in the paper.
//
// Output is deterministic: rendering the same data twice gives byte-identical
// tables, JSON and SVG, and identical PNG on the same machine. Figures use
// fixed fonts (Liberation Sans at fixed sizes), a fixed palette and a fixed
// resolution (PNGDPI).
package report
