#!/usr/bin/env bash
# The first search after an ingest at 10× paper scale (or at N× with
# --seeds N; --seeds 1 is paper scale): 10 synthetic seeds
# (`linemem synth --scale paper --seed 1…10`), each seed's files renamed
# seedN-NAME so that every file is its own source, ingested into one database
# (about 3.6 M messages, 222,823 chunks). The database and the index ingest
# builds beside it are made once under $BENCH_DIR (default
# build/bench-first-search) and reused when present; --fresh rebuilds them.
# Building takes several minutes of CPU and about 3 GB of disk; it runs under
# nice.
#
#   scripts/bench-first-search.sh [--fresh] [--runs N] [--seeds N] [QUESTION]
#
# Then a fresh `linemem search --db DB QUESTION` process (QUESTION: the
# first of data/synthetic/questions.jsonl unless given) is timed RUNS times
# (default 9, after one warm-up) with /usr/bin/time, and the median wall and
# CPU (user+sys) seconds are printed, with the minimum and maximum. Every run
# is a new process, so it opens the database and the index as the first
# search after an ingest does: with the everyday analyzer that includes
# loading kagome's dictionary from its fast-loading form, which the ingest
# wrote to the user's cache folder (lib/tokenize/kagome). Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-$root/build/bench-first-search}
fresh=0
runs=9
seeds=10
question=""
while [ $# -gt 0 ]; do
	case $1 in
	--fresh) fresh=1 ;;
	--runs) runs=$2; shift ;;
	--seeds) seeds=$2; shift ;;
	-*) echo "usage: scripts/bench-first-search.sh [--fresh] [--runs N] [--seeds N] [QUESTION]" >&2; exit 2 ;;
	*) question=$1 ;;
	esac
	shift
done
if [ ! -x /usr/bin/time ]; then
	echo "bench-first-search: /usr/bin/time is required (Debian: apt-get install time)" >&2
	exit 1
fi

if [ -z "$question" ]; then
	# The synthetic set's first question, in the corpus's language.
	question=$(head -n 1 "$root/data/synthetic/questions.jsonl" | sed -e 's/.*"question":"\([^"]*\)".*/\1/')
fi
bin=$dir/linemem
db=$dir/${seeds}x.db
stamp=$dir/.complete-${seeds}x-v1
mkdir -p "$dir"
echo "building linemem …" >&2
(cd "$root" && go build -o "$bin" ./cmd/linemem)

if [ "$fresh" = 1 ] || [ ! -f "$stamp" ]; then
	rm -rf "$dir/sources" "$dir/seed" "$db" "$db"-* "$dir/.${seeds}x.db.derived" "$stamp"
	mkdir -p "$dir/sources"
	for seed in $(seq 1 "$seeds"); do
		echo "synth --scale paper --seed $seed …" >&2
		rm -rf "$dir/seed"
		nice -n 10 "$bin" synth --scale paper --seed "$seed" --out "$dir/seed" >/dev/null
		for f in "$dir/seed/sources"/*; do
			mv "$f" "$dir/sources/seed$seed-$(basename "$f")"
		done
	done
	rm -rf "$dir/seed"
	echo "ingest ($seeds seeds) …" >&2
	nice -n 10 "$bin" ingest --quiet --db "$db" "$dir/sources" 2>"$dir/ingest.log" || { tail -n 5 "$dir/ingest.log" >&2; exit 1; }
	touch "$stamp"
fi

times=$dir/times.txt
searches=$dir/searches.txt
: >"$times"
: >"$searches"
# out.txt holds the shown messages: readable by the owner only.
(umask 077 && : >"$dir/out.txt")
for i in $(seq 0 "$runs"); do
	# Run 0 is the warm-up: it brings the files into the page cache, as
	# they are right after the ingest that wrote them.
	/usr/bin/time -f '%e %U %S' -a -o "$times" "$bin" search --db "$db" "$question" >"$dir/out.txt"
	# The search's own time, the index and dictionary already loaded, as
	# a long-running process (serve, mcp) answers every question after its
	# first: the first line says "… N results in 12.3ms (index … loaded in …)".
	if [ "$i" -gt 0 ]; then
		head -n 1 "$dir/out.txt" | sed -n 's/.* results* in \([0-9.]*\)\(µs\|ms\|s\) .*/\1 \2/p' >>"$searches"
	fi
done
tail -n +2 "$times" | awk -v runs="$runs" -v seeds="$seeds" '
	{ wall[NR] = $1; cpu[NR] = $2 + $3 }
	function sort(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	}
	function median(a, n) { return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
	END {
		n = NR; sort(wall, n); sort(cpu, n)
		printf "first search at %dx paper scale, %d runs: wall median %.3f s (min %.3f, max %.3f); CPU median %.3f s (min %.3f, max %.3f)\n",
			seeds, n, median(wall, n), wall[1], wall[n], median(cpu, n), cpu[1], cpu[n]
	}'
awk -v seeds="$seeds" '
	{ t[NR] = $2 == "s" ? $1 : $2 == "ms" ? $1 / 1000 : $1 / 1000000 }
	END {
		n = NR
		if (n == 0) { print "warm search: no timing line found"; exit }
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && t[j-1] > t[j]; j--) { x = t[j]; t[j] = t[j-1]; t[j-1] = x }
		m = n % 2 ? t[(n+1)/2] : (t[n/2] + t[n/2+1]) / 2
		printf "warm search (index and dictionary loaded) at %dx paper scale, %d runs: median %.3f s (min %.3f, max %.3f)\n", seeds, n, m, t[1], t[n]
	}' "$searches"
