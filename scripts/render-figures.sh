#!/usr/bin/env bash
# Render every figure of results/ at one column's width (3.3 in, 300 DPI
# PNG, SVG, PDF) into build/figures/column/, with its caption file, to look
# at before a paper prints them: those of `linemem reproduce`, the 20-seed
# robustness figure (`linemem robustness`, about a minute) and the
# users-vs-seeds figure (`linemem benchmark compare`, from the committed
# results/benchmarks/*/users.json). results/ holds the same figures at the
# text width (7 in). The tables and the rest of that folder are a by-product.
#
#   scripts/render-figures.sh [OUT]      (default build/figures/column)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="${1:-build/figures/column}"
rm -rf "$out"
go build -o build/linemem ./cmd/linemem
build/linemem reproduce --quiet --column-figures --db build/synthetic.db --data data/synthetic --out "$out"
build/linemem robustness --quiet --column-figures --work build/robustness-work --out "$out"
build/linemem benchmark compare --column-figures --seeds-results results --out "$out" results/benchmarks/locomo results/benchmarks/realpersonachat
echo "==> $(ls "$out"/*.png | wc -l) figures one column wide in $out/:"
ls "$out"/*.png
