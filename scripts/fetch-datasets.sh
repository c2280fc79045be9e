#!/usr/bin/env bash
# Make the public conversation data sets available before anything needs
# them (the first step of `make all`): use DATASETS when it holds them,
# otherwise download them into DATASETS with `linemem datasets fetch`
# (pinned commits, every file checked against its sha256 before it is put in
# place). Offline, it stops at once with a non-zero exit naming the command
# and the folder it expects, instead of failing twenty minutes later inside a
# notebook.
#
#   scripts/fetch-datasets.sh
#
# Environment:
#   DATASETS  folder that holds (or receives) locomo/locomo10.json and
#             real-persona-chat/dialogues.jsonl.gz (the Makefile passes
#             ../shared/datasets when it exists, else build/datasets-cache)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
datasets="${DATASETS:-build/datasets-cache}"
specs=("locomo:locomo/locomo10.json" "realpersonachat:real-persona-chat/dialogues.jsonl.gz")

missing=()
for spec in "${specs[@]}"; do
	[[ -f "$datasets/${spec#*:}" ]] || missing+=("$spec")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	echo "datasets: using $datasets"
	exit 0
fi

# cannot NAME: the message for every way of failing to fetch NAME.
cannot() {
	echo "datasets: $datasets lacks ${1#*:} and it could not be downloaded (offline?)." >&2
	echo "  Where there is network, run \`linemem datasets fetch locomo DIR\` and \`linemem datasets fetch realpersonachat DIR\`," >&2
	echo "  then rerun with DATASETS=DIR; expected: DIR/locomo/locomo10.json and DIR/real-persona-chat/dialogues.jsonl.gz." >&2
	exit 1
}

# A quick reachability check first, so that offline the step ends in seconds,
# before the build.
if command -v curl >/dev/null && ! curl -sS -o /dev/null --max-time 20 -I https://github.com/ 2>/dev/null; then
	cannot "${missing[0]}"
fi
go build -o build/linemem ./cmd/linemem || cannot "${missing[0]}"
for spec in "${missing[@]}"; do
	echo "==> linemem datasets fetch ${spec%%:*} $datasets"
	build/linemem datasets fetch "${spec%%:*}" "$datasets" || cannot "$spec"
done
echo "datasets: fetched into $datasets"
