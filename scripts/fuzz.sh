#!/usr/bin/env bash
# Run the fuzz targets of the readers of untrusted files for a bounded time
# each (FUZZTIME, default 4s): the LoCoMo and RealPersonaChat readers
# (lib/datasets) and the judgments import (lib/workbench). Each target also
# runs its seed corpus under plain `go test`; this script explores beyond it.
# A failure leaves the failing input under the package's testdata/fuzz/ and
# exits non-zero. CI runs it after `make test` (.ci/run); `make fuzz` runs it
# alone.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
fuzztime="${FUZZTIME:-4s}"

targets=(
	"./lib/datasets FuzzReadLoCoMo"
	"./lib/datasets FuzzReadRealPersonaChat"
	"./lib/workbench FuzzImportJudgments"
)

start=$(date +%s)
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	echo "==> go test -run '^\$' -fuzz '^$name\$' -fuzztime $fuzztime -parallel 1 $pkg"
	go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -parallel 1 "$pkg"
done
echo "==> fuzzing took $(($(date +%s) - start))s"
