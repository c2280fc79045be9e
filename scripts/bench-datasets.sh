#!/usr/bin/env bash
# CPU seconds and peak resident memory of converting each public data set and
# running the full protocol on it (`linemem datasets convert` + `linemem
# benchmark`: pooled, per user and, for LoCoMo, the turn, session and chunk
# units per conversation and the pooled turn haystack), measured with
# /usr/bin/time -v. Target: at most 60 CPU seconds and 1 GiB per data set on
# 2 cores.
#
#   scripts/bench-datasets.sh            (DATASETS as in scripts/benchmarks.sh)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
datasets="${DATASETS:-../shared/datasets}"
if [[ ! -x /usr/bin/time ]]; then
	echo "bench-datasets: /usr/bin/time is missing (Debian package \"time\")" >&2
	exit 1
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/linemem-bench-datasets.XXXXXX")"
trap 'rm -rf "$work"' EXIT
go build -o "$work/linemem" ./cmd/linemem

# measure LABEL CMD…: runs CMD under /usr/bin/time -v, prints CPU s and peak RSS.
measure() {
	local label="$1"
	shift
	/usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null 2>"$work/stderr.txt" || {
		cat "$work/stderr.txt" >&2
		exit 1
	}
	awk -v label="$label" -F': ' '
		/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
		END {printf "%-44s %8.2f CPU s %8.0f MiB peak RSS\n", label, u+s, r/1024}' "$work/time.txt"
	awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$work/time.txt" >>"$work/cpu.txt"
}

printf '%s on %s cores (%s)\n' "$(go version | cut -d' ' -f3)" "$(nproc)" "$(date -u +%Y-%m-%d)"
for spec in "locomo:locomo/locomo10.json" "realpersonachat:real-persona-chat/dialogues.jsonl.gz"; do
	name="${spec%%:*}"
	in="$datasets/${spec#*:}"
	if [[ ! -f "$in" ]]; then
		echo "bench-datasets: $in is missing; \`linemem datasets fetch $name DIR\` downloads it" >&2
		exit 1
	fi
	: >"$work/cpu.txt"
	measure "$name: convert" "$work/linemem" datasets convert "$name" "$in" "$work/$name" --per-user
	measure "$name: protocol (pooled + users + units)" "$work/linemem" benchmark --quiet --data "$work/$name" --work "$work/$name.work" --out "$work/$name.out"
	awk -v name="$name" '{t+=$1} END {printf "%-44s %8.2f CPU s (target ≤ 60)\n", name ": total", t}' "$work/cpu.txt"
done
