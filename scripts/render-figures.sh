#!/usr/bin/env bash
# Render every figure of `linemem reproduce` at one column's width (3.3 in,
# 300 DPI PNG, SVG) into build/figures/column/, with its caption file, to
# look at before a paper prints them. results/ holds the same figures at the
# text width (7 in). The tables and the rest of that folder are a by-product.
#
#   scripts/render-figures.sh [OUT]      (default build/figures/column)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="${1:-build/figures/column}"
rm -rf "$out"
go run ./cmd/linemem reproduce --quiet --column-figures --db build/synthetic.db --data data/synthetic --out "$out"
echo "==> $(ls "$out"/*.png | wc -l) figures one column wide in $out/:"
ls "$out"/*.png
