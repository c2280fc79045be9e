#!/usr/bin/env bash
# Compile every results/*.tex table into one plain article with pdflatex and
# fail on any LaTeX error, any overfull box wider than 1 pt, or any table
# cell that wraps; then check that results/tables.pdf is the PDF those
# sources compile to.
#
# A cell can only wrap in a paragraph column (tabularx's X, or p{}, m{},
# b{}): with \tracingtabularx on, tabularx logs each such column's width,
# and a table with one fails, naming its file. Cells of l, c and r columns
# keep their natural width; a table too wide for them is an overfull box.
#
#   scripts/check-latex.sh            check (what `make check-latex` and CI run)
#   scripts/check-latex.sh --update   also write results/tables.pdf
#
# The document is the one a paper would \input the tables into: a one-column
# 10 pt article with [utf8]{inputenc}, [T1]{fontenc}, lmodern, booktabs,
# amsmath and tabularx. pdflatex comes from Debian's texlive-latex-base and
# texlive-latex-recommended (booktabs), with Latin Modern (Debian's lmodern:
# Type 1 fonts for T1; with Computer Modern's EC fonts pdflatex would write
# bitmap fonts into ~/.texlive*), installed by scripts/setup-latex.sh when
# missing. The PDF is byte-reproducible: SOURCE_DATE_EPOCH fixes its dates
# and ID, and the sources are listed in sorted order.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
update=false
case "${1:-}" in
--update) update=true ;;
"") ;;
*) echo "usage: scripts/check-latex.sh [--update]" >&2; exit 2 ;;
esac

scripts/setup-latex.sh
if ! command -v pdflatex >/dev/null; then
	echo "check-latex: pdflatex is not installed and could not be installed; install texlive-latex-base and texlive-latex-recommended" >&2
	exit 1
fi

out="build/latex"
rm -rf "$out"
mkdir -p "$out"
mapfile -t tables < <(cd results && ls -1 -- *.tex | LC_ALL=C sort)
if ((${#tables[@]} == 0)); then
	echo "check-latex: results/ holds no .tex table" >&2
	exit 1
fi
{
	cat <<'TEX'
\documentclass[10pt]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{booktabs}
\usepackage{amsmath}
\usepackage{tabularx}
\tracingtabularx
\pdfinfoomitdate=1
\pdftrailerid{}
\begin{document}
TEX
	# The paper's tables keep their numbers (table5_… is Table 5); the others
	# are numbered S1, S2, … in file-name order.
	for t in "${tables[@]}"; do
		if [[ "$t" =~ ^table([0-9]+) ]]; then
			printf '\\renewcommand{\\thetable}{\\arabic{table}}\\setcounter{table}{%d}\n' "$((BASH_REMATCH[1] - 1))"
		else
			supplementary=$((${supplementary:-0} + 1))
			printf '\\renewcommand{\\thetable}{S\\arabic{table}}\\setcounter{table}{%d}\n' "$((supplementary - 1))"
		fi
		printf '\\input{../../results/%s}\n\\clearpage\n' "$t"
	done
	echo '\end{document}'
} >"$out/tables.tex"

echo "==> pdflatex $out/tables.tex (${#tables[@]} tables)"
if ! (cd "$out" && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 pdflatex -interaction=nonstopmode -halt-on-error tables.tex >/dev/null); then
	grep -A3 '^!' "$out/tables.log" >&2 || tail -20 "$out/tables.log" >&2
	echo "check-latex: pdflatex failed on the tables (above; log: $out/tables.log)" >&2
	exit 1
fi

# Overfull boxes wider than 1 pt, with the table they come from.
overfull="$(awk '
	{ line = $0; while (match(line, /results\/[^ )]*\.tex/)) { file = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH) } }
	/^Overfull \\[hv]box \(/ {
		w = $0; sub(/^Overfull \\[hv]box \(/, "", w); sub(/pt too .*/, "", w)
		if (w + 0 > 1) print file ": " $0
	}' "$out/tables.log")"
# tabularx traces each X column as "(tabularx) ... X Column Width"; the
# paragraph columns of p{}, m{} and b{} are found in the sources.
wrapping="$(awk '
	{ line = $0; while (match(line, /results\/[^ )]*\.tex/)) { file = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH) } }
	/^\(tabularx\)/ && !seen[file]++ { print file ": a tabularx X column (its cells wrap)" }' "$out/tables.log")"
for t in "${tables[@]}"; do
	if grep -Eq '\\begin\{tabular[x*]?\}(\{[^}]*\})?\{[^}]*[pmb]\{' "results/$t"; then
		wrapping+=$'\n'"results/$t: a p{}, m{} or b{} column (its cells wrap)"
	fi
done
wrapping="$(sed '/^$/d' <<<"$wrapping")"
if [[ -n "$wrapping" ]]; then
	printf '%s\n' "$wrapping" >&2
	echo "check-latex: table cells that wrap (above); set the column l, c or r and let lib/report choose the font size (log: $out/tables.log)" >&2
	exit 1
fi
errors="$(grep -c '^!' "$out/tables.log" || true)"
if [[ -n "$overfull" || "$errors" != 0 ]]; then
	[[ -n "$overfull" ]] && printf '%s\n' "$overfull" >&2
	echo "check-latex: $errors error(s) and the overfull boxes above (log: $out/tables.log)" >&2
	exit 1
fi
echo "==> ${#tables[@]} tables compile with no error, no overfull box over 1 pt and no cell that wraps"

if $update; then
	cp "$out/tables.pdf" results/tables.pdf
	echo "==> wrote results/tables.pdf"
elif ! cmp -s "$out/tables.pdf" results/tables.pdf; then
	echo "check-latex: results/tables.pdf is not what results/*.tex compile to; run \`make tables-pdf\` and commit it" >&2
	exit 1
else
	echo "==> results/tables.pdf matches the sources"
fi
