#!/usr/bin/env bash
# Run make targets one after another, each under scripts/timed.sh (a line
# with its elapsed time when it starts and ends, a "... so far" line after
# every 15 s without output, 10 s inside a step that times its own parts),
# stop at the first that fails, and end with the time each took. `make all` runs its ALL_STEPS through this.
#
#   scripts/run-steps.sh TARGET...
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
make="${MAKE:-make}"
total_start=$(date +%s)
summary=()
n=$#
i=0
for target in "$@"; do
	i=$((i + 1))
	start=$(date +%s)
	if ! scripts/timed.sh "[$i/$n] make $target" "$make" --no-print-directory "$target"; then
		printf '%s\n' "${summary[@]}"
		echo "run-steps: make $target failed after $(($(date +%s) - start))s" >&2
		exit 1
	fi
	summary+=("$(printf '    %-20s %4ds' "$target" $(($(date +%s) - start)))")
done
echo "==> all $n steps ok in $(($(date +%s) - total_start))s:"
printf '%s\n' "${summary[@]}"
