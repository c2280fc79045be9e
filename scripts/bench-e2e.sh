#!/usr/bin/env bash
# End-to-end benchmark of the command-line path at paper scale: every step is
# a separate `linemem` process from one built binary, timed with
# /usr/bin/time (wall, user+sys CPU, peak RSS).
#
#   scripts/bench-e2e.sh [--fresh] [--out FILE]
#
# The corpus (`linemem synth --scale paper`: 358,896 messages, 22,314 chunks,
# 100 questions) and seeded random 1,536-d vectors for the summary and
# embedding_text chunks and for the questions (scripts/benchvectors) are
# generated once into $BENCH_DIR/data and reused; --fresh regenerates them.
# The database and its derived indexes are deleted before and after every
# run, so each run starts from an empty database. The table goes to stdout
# and, with --out FILE, to FILE as well.
#
# The workflow a researcher runs comes first and makes the total: ingest, the
# imports, sweep (the first command after the writes, so it builds and saves
# every derived index it reads) and eval. The derived folder is then deleted:
# "cold" search is the first search process after a write (it builds and
# saves its index); "warm" is the same search again in a new process. The
# everyday search (`linemem search --db p.db QUESTION`,
# no --retriever: BM25 over embedding_text with char-bigram) is timed first,
# cold and warm; the derived folder is then deleted, so that the named
# retrievers (whose BM25 is the same index) start cold too. CPU time
# (user+sys) is the figure to compare on a busy machine; wall time is what a
# user waits.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${BENCH_DIR:-$root/build/bench-e2e}
fresh=0
out=""
while [ $# -gt 0 ]; do
	case $1 in
	--fresh) fresh=1 ;;
	--out) out=$2; shift ;;
	*) echo "usage: scripts/bench-e2e.sh [--fresh] [--out FILE]" >&2; exit 2 ;;
	esac
	shift
done
if [ ! -x /usr/bin/time ]; then
	echo "bench-e2e: /usr/bin/time is required (Debian: apt-get install time)" >&2
	exit 1
fi

data=$dir/data
work=$dir/work
bin=$dir/linemem
mkdir -p "$dir"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
cleanup
mkdir -p "$work"

echo "building linemem …" >&2
(cd "$root" && go build -o "$bin" ./cmd/linemem)
commit=$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(cd "$root" && git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit=$commit-dirty
fi

stamp=$data/.complete-v1
if [ "$fresh" = 1 ] || [ ! -f "$stamp" ]; then
	rm -rf "$data"
	echo "generating the paper-scale corpus and vectors into $data …" >&2
	"$bin" synth --scale paper --out "$data" >/dev/null
	(cd "$root" && go run ./scripts/benchvectors --summaries "$data/summaries.jsonl" \
		--questions "$data/questions.jsonl" --out "$data" --dim 1536 --seed 1)
	touch "$stamp"
fi

db=$work/p.db
model=bench-random-1536
question=$(head -n 1 "$data/questions.jsonl" | sed -e 's/.*"question":"\([^"]*\)".*/\1/')
retrievers=raw_text_bm25,summary_bm25,embedding_text_bm25,summary_vector,embedding_text_vector,hybrid:embedding_text_bm25+embedding_text_vector@0.45,hybrid:summary_bm25+summary_vector@0.50

rows=()
total_wall=0
total_cpu=0
# step LABEL IN_TOTAL ARGS…: runs linemem ARGS… once under /usr/bin/time.
step() {
	local label=$1 in_total=$2
	shift 2
	echo "  $label" >&2
	if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" "$@" >"$work/stdout" 2>"$work/stderr"; then
		echo "bench-e2e: step failed: linemem $*" >&2
		cat "$work/stderr" >&2
		exit 1
	fi
	local wall user sys rss cpu
	read -r wall user sys rss < <(tail -n 1 "$work/time")
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	rows+=("$(printf '| %-52s | %7.2f | %7.2f | %6d |' "$label" "$wall" "$cpu" $((rss / 1024)))")
	if [ "$in_total" = 1 ]; then
		total_wall=$(awk -v a="$total_wall" -v b="$wall" 'BEGIN { print a + b }')
		total_cpu=$(awk -v a="$total_cpu" -v b="$cpu" 'BEGIN { print a + b }')
	fi
}

echo "timing …" >&2
step "ingest --db p.db sources" 1 ingest --db "$db" "$data/sources"
step "summaries import" 1 summaries import --db "$db" "$data/summaries.jsonl"
step "vectors import --rep summary" 1 vectors import --db "$db" --rep summary --model "$model" "$data/vectors_summary.jsonl"
step "vectors import --rep embedding_text" 1 vectors import --db "$db" --rep embedding_text --model "$model" "$data/vectors_embedding_text.jsonl"
step "vectors import --queries" 1 vectors import --db "$db" --queries --model "$model" "$data/vectors_queries.jsonl"
step "sweep --json (126 configurations, builds indexes)" 1 sweep --db "$db" --questions "$data/questions.jsonl" --qrels "$data/qrels.txt" --json
step "eval --json (7 retrievers, B = 5,000)" 1 eval --db "$db" --questions "$data/questions.jsonl" --qrels "$data/qrels.txt" --retriever "$retrievers" --json
rm -rf "$work/.p.db.derived"
for temp in cold warm; do
	step "search, everyday default ($temp)" 0 search --db "$db" "$question"
done
rm -rf "$work/.p.db.derived"
for temp in cold warm; do
	step "search embedding_text_bm25 ($temp)" 0 search --db "$db" --retriever embedding_text_bm25 "$question"
	step "search embedding_text_vector ($temp)" 0 search --db "$db" --retriever embedding_text_vector "$question"
	step "search hybrid E-BM25+E-Vec@0.45 ($temp)" 0 search --db "$db" --retriever hybrid:embedding_text_bm25+embedding_text_vector@0.45 "$question"
done

{
	echo "linemem end-to-end benchmark, paper scale ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $commit)"
	echo
	printf '| %-52s | %7s | %7s | %6s |\n' "step (each a separate linemem process)" "wall s" "CPU s" "RSS MiB"
	printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..54})" "---------:" "---------:" "-------:"
	for r in "${rows[@]}"; do echo "$r"; done
	printf '| %-52s | %7.2f | %7.2f | %6s |\n' "**whole workflow** (ingest … eval, searches excluded)" "$total_wall" "$total_cpu" ""
} | if [ -n "$out" ]; then mkdir -p "$(dirname "$out")"; tee "$out"; else cat; fi
