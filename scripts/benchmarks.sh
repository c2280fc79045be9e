#!/usr/bin/env bash
# Regenerate results/benchmarks/: the paper protocol on public conversation
# data sets (LoCoMo, RealPersonaChat), pooled and per user, and the
# comparison of their users with the synthetic seeds.
#
#   scripts/benchmarks.sh [--out DIR]     (default results/benchmarks)
#
# For each data set the original is converted (`linemem datasets convert …
# --per-user`) into build/datasets/<name>/ — converted text keeps the data
# set's licence (LoCoMo CC BY-NC 4.0, RealPersonaChat CC BY-SA 4.0) and never
# goes into the repository — and `linemem benchmark` writes aggregates only
# into DIR/<name>/. A missing original stops the script and names the command
# that downloads it; nothing is skipped silently.
#
# Environment:
#   DATASETS  folder holding locomo/locomo10.json and
#             real-persona-chat/dialogues.jsonl.gz (default ../shared/datasets)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out=results/benchmarks
if [[ "${1:-}" == "--out" && -n "${2:-}" ]]; then
	out="$2"
elif [[ $# -gt 0 ]]; then
	echo "usage: scripts/benchmarks.sh [--out DIR]" >&2
	exit 2
fi
datasets="${DATASETS:-../shared/datasets}"
mkdir -p build/datasets "$out"
go build -o build/linemem ./cmd/linemem

declare -A original=(
	[locomo]="$datasets/locomo/locomo10.json"
	[realpersonachat]="$datasets/real-persona-chat/dialogues.jsonl.gz"
)
declare -A label=([locomo]=LoCoMo [realpersonachat]=RealPersonaChat)
for name in locomo realpersonachat; do
	in="${original[$name]}"
	if [[ ! -f "$in" ]]; then
		echo "benchmarks: $in is missing; \`linemem datasets fetch $name DIR\` downloads it (then DATASETS=DIR; \`make datasets\` does both)" >&2
		exit 1
	fi
	rm -rf "build/datasets/$name" "build/datasets/$name.work"
	echo "==> linemem datasets convert $name $in build/datasets/$name --per-user"
	build/linemem datasets convert "$name" "$in" "build/datasets/$name" --per-user
	rm -rf "${out:?}/$name"
	echo "==> linemem benchmark --data build/datasets/$name --out $out/$name"
	build/linemem benchmark --quiet --name "${label[$name]}" --data "build/datasets/$name" --work "build/datasets/$name.work" --out "$out/$name"
done
echo "==> linemem benchmark compare --out $out"
build/linemem benchmark compare --seeds-results results --out "$out" "$out/locomo" "$out/realpersonachat"
