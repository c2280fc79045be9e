#!/usr/bin/env bash
# Mutation testing of the core packages and of the packages that read
# untrusted or everyday input, with Gremlins (a `tool` in go.mod):
# each package's source is mutated one change at a time (a > turned >=, a +
# turned -, a condition negated, …) and its tests are run against the mutant.
# A mutant the tests fail on is KILLED; one they pass is LIVED, a missing test.
#
#   scripts/mutants.sh                 every core package, then every input package
#   scripts/mutants.sh lib/fusion …    the named packages
#
# Prints one line per package — killed, lived, of those equivalent, timed
# out — and two kill rates: over the non-equivalent mutants,
# killed / (killed + lived − equivalent), and over all of them,
# killed / (killed + lived). A mutant is equivalent when no input can tell it
# from the original; each is listed, with one line of reasoning, in
# scripts/mutants-equivalent.txt as "FILE:COLUMN TYPE HASH  reason", where
# HASH is the first 8 hex digits of the SHA-256 of the mutated source line
# with its leading and trailing white space trimmed. A listed mutant is
# matched by file, column, type and the line's text, not by line number, so
# the list stays valid when lines above it move; it goes stale only when that
# line itself changes. Lived mutants that are not listed are printed after the
# table in the list's own form, with their line number and source text after
# a '#', ready to be given a reason. Writes Gremlins' JSON reports under
# build/mutants/, and beside each its log, one line per mutant as it is run
# (`tail -f build/mutants/lib_datasets.log` shows a run's progress). Not part
# of CI: a full run takes tens of minutes.
#
# Environment:
#   MUTANT_WORKERS   parallel mutants (default: number of cores)
#   MUTANT_TIMEOUT   Gremlins' timeout coefficient over the unmutated test
#                    time (default 20; a loaded machine needs more, or mutants
#                    are counted as timed out instead of killed)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# core: the paper's pipeline, whose numbers the results rest on.
core=(lib/chunking lib/bm25 lib/fusion lib/metrics lib/bootstrap lib/experiment lib/analysis
	lib/tokenize/paperregex lib/represent lib/lineexport)
# input: the data-set readers (untrusted files), the analyzer measurement and
# the everyday analyzer that picks a person's default, and the memory search
# over a person's own history.
input=(lib/datasets lib/tokenize/everyday lib/analyzers lib/memory)
packages=("$@")
((${#packages[@]})) || packages=("${core[@]}" "${input[@]}")
workers="${MUTANT_WORKERS:-$(nproc)}"
coefficient="${MUTANT_TIMEOUT:-20}"
out=build/mutants
mkdir -p "$out"

equivalent=scripts/mutants-equivalent.txt
total_killed=0 total_lived=0 total_equiv=0 total_timeout=0
live_list="$out/lived.txt"
: >"$live_list"
printf '%-28s %7s %6s %6s %9s %9s %9s\n' package killed lived equiv timed-out non-equiv all
rate() { # killed, denominator
	if (($2)); then awk -v k="$1" -v d="$2" 'BEGIN { printf "%.1f%%", 100 * k / d }'; else echo -; fi
}
for p in "${packages[@]}"; do
	report="$out/$(tr / _ <<<"$p").json"
	go tool gremlins unleash --workers "$workers" --timeout-coefficient "$coefficient" \
		--output "$report" "./$p" >"${report%.json}.log"
	read -r killed lived equiv timeout < <(python3 - "$report" "$p" "$equivalent" "$live_list" <<'PY'
import hashlib, json, os, sys
report, pkg, equivalent, live_list = sys.argv[1:]
r = json.load(open(report))
known = set()
if os.path.exists(equivalent):
    for line in open(equivalent, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            where, kind, digest = line.split()[:3]
            known.add((where, kind, digest))
sources = {}
def source_line(path, n):
    if path not in sources:
        sources[path] = open(path, encoding="utf-8").read().split("\n")
    return sources[path][n - 1].strip()
killed = lived = equiv = timeout = 0
with open(live_list, "a", encoding="utf-8") as out:
    for f in r.get("files", []):
        name = f["file_name"]
        path = name if name.startswith(pkg + "/") else pkg + "/" + os.path.basename(name)
        for m in f.get("mutations", []):
            status = m["status"]
            if status == "KILLED":
                killed += 1
            elif status == "LIVED":
                lived += 1
                text = source_line(path, m["line"])
                digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
                where = "%s:%d" % (path, m["column"])
                if (where, m["type"], digest) in known:
                    equiv += 1
                else:
                    out.write("%s %s %s  # line %d: %s\n" % (where, m["type"], digest, m["line"], text))
            elif status.startswith("TIMED"):
                timeout += 1
print(killed, lived, equiv, timeout)
PY
)
	total_killed=$((total_killed + killed)) total_lived=$((total_lived + lived))
	total_equiv=$((total_equiv + equiv)) total_timeout=$((total_timeout + timeout))
	printf '%-28s %7d %6d %6d %9d %9s %9s\n' "$p" "$killed" "$lived" "$equiv" "$timeout" \
		"$(rate "$killed" $((killed + lived - equiv)))" "$(rate "$killed" $((killed + lived)))"
done
printf '%-28s %7d %6d %6d %9d %9s %9s\n' total "$total_killed" "$total_lived" "$total_equiv" "$total_timeout" \
	"$(rate "$total_killed" $((total_killed + total_lived - total_equiv)))" "$(rate "$total_killed" $((total_killed + total_lived)))"
if [[ -s "$live_list" ]]; then
	echo "lived, not listed as equivalent in $equivalent:"
	cat "$live_list"
fi
