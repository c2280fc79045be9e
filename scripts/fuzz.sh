#!/usr/bin/env bash
# Run every fuzz target under lib/ for a bounded time each (FUZZTIME,
# default 3s): the readers of untrusted files (exports, data sets, judgments,
# stored indexes and vectors), the everyday query parser and the analyzers.
# Each target also runs its seed corpus under plain `go test`; this script
# explores beyond it. A failure leaves the failing input under the package's
# testdata/fuzz/ and exits non-zero. `make test` runs it after go test;
# `make fuzz` runs it alone.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
fuzztime="${FUZZTIME:-3s}"

# Every fuzz target under lib/, found afresh so that a new one is never left
# out: "PACKAGE NAME" per line.
mapfile -t targets < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' lib |
	sed -E 's#^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)$#./\1 \2#' | sort -u)
if ((${#targets[@]} == 0)); then
	echo "fuzz.sh: no fuzz targets found under lib/" >&2
	exit 1
fi

start=$(date +%s)
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	echo "==> go test -run '^\$' -fuzz '^$name\$' -fuzztime $fuzztime -parallel 1 $pkg"
	# Indented, so that a reader of the log counting go test's package lines
	# counts each package once.
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -parallel 1 "$pkg" 2>&1 | sed 's/^/    /'
done
echo "==> fuzzing took $(($(date +%s) - start))s"
