#!/usr/bin/env bash
# The LoCoMo benchmark with a neural dense model: Universal Sentence Encoder
# lite (scripts/use-embedder, English, 512-d) served on 127.0.0.1 behind the
# OpenAI embeddings format, reached through `linemem embed --provider openai
# --base-url` (a loopback service is local: no --allow-remote), then
# `linemem benchmark --embed-model` writes aggregates only into DIR: the paper's
# tables on the pooled chunks and per user with USE-lite vectors, and (with
# --embed-url) the units study (turn, session, chunk, pooled haystack) with
# USE-lite embedding every unit's documents: ≈ 8,600 more texts, most of them
# turn documents of ≈ 800 characters.
#
#   scripts/benchmarks-neural.sh [--out DIR]   (default results/benchmarks/neural)
#
# Not part of CI: the model embeds ≈ 10,700 texts on the CPU (≈ 2,000 with
# NEURAL_UNITS=0). The cost (texts, CPU seconds of the model server and of
# linemem, wall time) is printed at the end and written to DIR/cost.txt.
#
# Environment:
#   DATASETS  folder holding locomo/locomo10.json (default ../shared/datasets)
#   PORT      loopback port of the model server (default 8791)
#   NEURAL_UNITS  1 (default): the units study at every unit; 0: no units study;
#                 a list such as session,chunk: those units only (no pooled haystack)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out=results/benchmarks/neural
if [[ "${1:-}" == "--out" && -n "${2:-}" ]]; then
	out="$2"
elif [[ $# -gt 0 ]]; then
	echo "usage: scripts/benchmarks-neural.sh [--out DIR]" >&2
	exit 2
fi
datasets="${DATASETS:-../shared/datasets}"
port="${PORT:-8791}"
model=use-lite-512
in="$datasets/locomo/locomo10.json"
data=build/neural/locomo
work=build/neural/locomo.work
if [[ ! -f "$in" ]]; then
	echo "benchmarks-neural: $in is missing; \`linemem datasets fetch locomo DIR\` downloads it (then DATASETS=DIR/..)" >&2
	exit 1
fi
command -v node >/dev/null || { echo "benchmarks-neural: node (≥ 18) is needed for scripts/use-embedder" >&2; exit 1; }

start=$(date +%s.%N)
go build -o build/linemem ./cmd/linemem
(cd scripts/use-embedder && npm ci --no-audit --no-fund --loglevel=error)

mkdir -p build/neural
if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
	echo "benchmarks-neural: something already answers on 127.0.0.1:$port; stop it or set PORT" >&2
	exit 1
fi
log=build/neural/server.log
node scripts/use-embedder/server.mjs --port "$port" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port/v1"
for _ in $(seq 1 100); do
	if ! kill -0 "$server" 2>/dev/null; then cat "$log" >&2; exit 1; fi
	if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
	sleep 0.2
done

rm -rf "$data" "$work" "$out"
mkdir -p "$out"
cli_time=build/neural/linemem.time
: >"$cli_time"
cli() { /usr/bin/time -a -o "$cli_time" -f '%U %S' build/linemem "$@"; }

echo "==> linemem datasets convert locomo $in $data --per-user"
cli datasets convert locomo "$in" "$data" --per-user
# The pooled database: sources, summaries and questions as the benchmark
# loads them (reproduce's corpus table is the cheapest artefact that does).
echo "==> linemem reproduce --data $data --db $work/pooled.db --only table1"
mkdir -p "$work"
cli reproduce --quiet --data "$data" --db "$work/pooled.db" --only table1 --out build/neural/prepare
texts=0
for what in "--rep summary" "--rep embedding_text" "--queries $data/questions.jsonl"; do
	echo "==> linemem embed --db $work/pooled.db --provider openai --base-url $base --model $model $what"
	# shellcheck disable=SC2086
	cli embed --db "$work/pooled.db" --provider openai --base-url "$base" --model "$model" --batch 64 --timeout 10m $what | tee build/neural/embed.out
	n=$(sed -n 's/^[a-z_ ]*: \([0-9]*\) total.*/\1/p' build/neural/embed.out | head -1)
	texts=$((texts + ${n:-0}))
done
units=()
case "${NEURAL_UNITS:-1}" in
0) ;;
1) units=(--embed-url "$base") ;;
*) units=(--embed-url "$base" --units "$NEURAL_UNITS") ;;
esac
echo "==> linemem benchmark --data $data --embed-model $model ${units[*]} --out $out"
cli benchmark --quiet --name "LoCoMo (USE-lite)" --data "$data" --work "$work" --embed-model "$model" "${units[@]}" --out "$out" | tee build/neural/benchmark.out
n=$(sed -n 's/^units study: \([0-9]*\) texts.*/\1/p' build/neural/benchmark.out)
texts=$((texts + ${n:-0}))

server_cpu=$(ps -o times= -p "$server" | tr -d ' ')
kill "$server"
wait "$server" 2>/dev/null || true
trap - EXIT
end=$(date +%s.%N)
cli_cpu=$(awk '{s += $1 + $2} END {print s}' "$cli_time")
printf 'model %s (Universal Sentence Encoder lite, @energetic-ai 0.2.0): %d texts embedded; CPU %.0f s in the model server, %.0f s in linemem; wall %.0f s\n' \
	"$model" "$texts" "$server_cpu" "$cli_cpu" "$(echo "$end - $start" | bc)" | tee "$out/cost.txt"
