#!/usr/bin/env bash
# Mutation testing of the core packages with Gremlins (a `tool` in go.mod):
# each package's source is mutated one change at a time (a > turned >=, a +
# turned -, a condition negated, …) and its tests are run against the mutant.
# A mutant the tests fail on is KILLED; one they pass is LIVED, a missing test.
#
#   scripts/mutants.sh                 every core package
#   scripts/mutants.sh lib/fusion …    the named packages
#
# Prints one line per package (killed, lived, timed out, efficacy) and the
# total kill rate, killed / (killed + lived); writes Gremlins' JSON reports
# under build/mutants/. Not part of CI: a full run takes tens of minutes.
#
# Environment:
#   MUTANT_WORKERS   parallel mutants (default: number of cores)
#   MUTANT_TIMEOUT   Gremlins' timeout coefficient over the unmutated test
#                    time (default 20; a loaded machine needs more, or mutants
#                    are counted as timed out instead of killed)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
core=(lib/chunking lib/bm25 lib/fusion lib/metrics lib/bootstrap lib/experiment lib/analysis
	lib/tokenize/paperregex lib/represent lib/lineexport)
packages=("$@")
((${#packages[@]})) || packages=("${core[@]}")
workers="${MUTANT_WORKERS:-$(nproc)}"
coefficient="${MUTANT_TIMEOUT:-20}"
out=build/mutants
mkdir -p "$out"

total_killed=0 total_lived=0 total_timeout=0
printf '%-28s %7s %6s %9s %9s\n' package killed lived timed-out efficacy
for p in "${packages[@]}"; do
	report="$out/$(tr / _ <<<"$p").json"
	go tool gremlins unleash --silent --workers "$workers" --timeout-coefficient "$coefficient" \
		--output "$report" "./$p" >/dev/null
	read -r killed lived timeout < <(python3 - "$report" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(r.get("mutants_killed", 0), r.get("mutants_lived", 0), r.get("mutants_timed_out", r.get("timed_out", 0)))
PY
)
	total_killed=$((total_killed + killed)) total_lived=$((total_lived + lived)) total_timeout=$((total_timeout + timeout))
	eff="-"
	((killed + lived)) && eff="$(awk -v k="$killed" -v l="$lived" 'BEGIN { printf "%.1f%%", 100 * k / (k + l) }')"
	printf '%-28s %7d %6d %9d %9s\n' "$p" "$killed" "$lived" "$timeout" "$eff"
done
eff="-"
((total_killed + total_lived)) && eff="$(awk -v k="$total_killed" -v l="$total_lived" 'BEGIN { printf "%.1f%%", 100 * k / (k + l) }')"
printf '%-28s %7d %6d %9d %9s\n' total "$total_killed" "$total_lived" "$total_timeout" "$eff"
echo "lived mutants: build/mutants/*.json (\"status\": \"LIVED\")"
