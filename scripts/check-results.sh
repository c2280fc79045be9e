#!/usr/bin/env bash
# Fail when the committed results/ drift from what the code regenerates.
#
#   1. `linemem reproduce` writes a fresh copy of results/ into a temporary
#      folder; every file must match the committed one byte for byte (figures
#      included, for now) and neither side may have a file the other lacks.
#   2. `linemem robustness` (the paper protocol on SEEDS, in temporary
#      folders) writes the robustness_seeds* files likewise; they must match.
#   3. scripts/benchmarks.sh (LoCoMo and RealPersonaChat from DATASETS, pooled
#      and per user) writes results/benchmarks/ likewise; it must match. Without
#      the data sets the check fails and names the command that fetches them.
#      results/benchmarks/neural/ (USE-lite, `make benchmarks-neural`, needs
#      node and minutes of CPU) is not regenerated here.
#   4. In a git checkout, results/ must also be unchanged against HEAD, so files
#      the notebooks rewrote (run `make notebooks` first) are held to the same rule.
#
# manifest.json names the code by its content hash (go.mod, go.sum, lib/,
# cmd/), not by a commit, so it is compared like every other file.
#
# Environment:
#   DATA   synthetic export to reproduce from (default data/synthetic).
#   SEEDS  seeds of the committed robustness_seeds* files (default 1-20).
#   DATASETS  public data sets for results/benchmarks (default ../shared/datasets).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
data="${DATA:-data/synthetic}"
seeds="${SEEDS:-1-20}"
robust_files='robustness_seeds*'

fresh="$(mktemp -d "${TMPDIR:-/tmp}/linemem-results.XXXXXX")"
robust="$(mktemp -d "${TMPDIR:-/tmp}/linemem-robustness.XXXXXX")"
committed="$(mktemp -d "${TMPDIR:-/tmp}/linemem-committed.XXXXXX")"
benchmarks="$(mktemp -d "${TMPDIR:-/tmp}/linemem-benchmarks.XXXXXX")"
trap 'rm -rf "$fresh" "$fresh".db* "$(dirname "$fresh")/.$(basename "$fresh").db.derived" "$robust" "$committed" "$benchmarks"' EXIT

echo "==> go run ./cmd/linemem reproduce --db $fresh.db --data $data --out $fresh"
start=$(date +%s)
go run ./cmd/linemem reproduce --quiet --db "$fresh.db" --data "$data" --out "$fresh"
echo "==> reproduce took $(($(date +%s) - start))s"

# README.md and dotfiles (.gitkeep) describe results/, and tables.pdf is compiled
# from the .tex tables by scripts/check-latex.sh; reproduce writes none of them.
echo "==> diff -r results/ against the fresh copy"
if ! diff -r -x '.*' -x README.md -x tables.pdf -x "$robust_files" -x benchmarks results "$fresh"; then
	echo "check-results: results/ differ from what \`linemem reproduce\` writes (above); rerun \`make reproduce\` and commit, or fix the change that moved them" >&2
	exit 1
fi

echo "==> go run ./cmd/linemem robustness --seeds $seeds --out $robust"
start=$(date +%s)
go run ./cmd/linemem robustness --quiet --seeds "$seeds" --out "$robust"
echo "==> robustness took $(($(date +%s) - start))s"
echo "==> diff results/$robust_files against the fresh copy"
# shellcheck disable=SC2086 # the glob is meant to expand
cp results/$robust_files "$committed"/ 2>/dev/null || true
if ! diff -r "$committed" "$robust"; then
	echo "check-results: results/$robust_files differ from what \`linemem robustness --seeds $seeds\` writes (above); rerun \`make robustness\` and commit, or fix the change that moved them" >&2
	exit 1
fi

echo "==> scripts/benchmarks.sh --out $benchmarks"
start=$(date +%s)
scripts/benchmarks.sh --out "$benchmarks"
echo "==> benchmarks took $(($(date +%s) - start))s"
echo "==> diff results/benchmarks against the fresh copy"
if ! diff -r -x neural results/benchmarks "$benchmarks"; then
	echo "check-results: results/benchmarks differ from what scripts/benchmarks.sh writes (above); rerun \`make benchmarks\` and commit, or fix the change that moved them" >&2
	exit 1
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "==> git status results/"
	changed="$(git status --porcelain --untracked-files=all -- results)"
	if [[ -n "$changed" ]]; then
		printf '%s\n' "$changed" >&2
		echo "check-results: results/ differ from the committed ones (above); commit the regenerated files or find what changed them" >&2
		exit 1
	fi
fi
echo "==> results/ match"
