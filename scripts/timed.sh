#!/usr/bin/env bash
# Run one step of a longer job and say how long it took, with a line at least
# every PROGRESS_INTERVAL seconds while it runs:
#
#   scripts/timed.sh NAME COMMAND [ARG...]
#
# prints "==> NAME", then COMMAND's output (stderr merged into stdout, line by
# line), "    ... NAME: 1m20s so far" after each PROGRESS_INTERVAL seconds
# without a line, and "==> NAME done in 2m05s" (or "FAILED after …, exit N").
# Exits with COMMAND's status. Text that does not end in a newline is held
# until it does, so a heartbeat never splits a line.
#
# Environment:
#   PROGRESS_INTERVAL  seconds of silence before a heartbeat line (default 10
#                      for a step inside another, 15 for the outermost, so that
#                      an inner step's lines come first and one line says it).
set -uo pipefail

if (($# < 2)); then
	echo "usage: scripts/timed.sh NAME COMMAND [ARG...]" >&2
	exit 2
fi
name="$1"
shift
depth="${TIMED_DEPTH:-0}"
export TIMED_DEPTH=$((depth + 1))
if ((depth == 0)); then interval="${PROGRESS_INTERVAL:-15}"; else interval="${PROGRESS_INTERVAL:-10}"; fi
start=$(date +%s)

# elapsed prints the time since start as 1m05s (or 42s).
elapsed() {
	local s=$(($(date +%s) - start))
	if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

printf '==> %s\n' "$name"
exec 3< <("$@" 2>&1)
pid=$!
last=$(date +%s)
held=""
while :; do
	IFS= read -r -t "$interval" line <&3
	status=$?
	if ((status == 0)); then
		printf '%s%s\n' "$held" "$line"
		held=""
		last=$(date +%s)
		continue
	fi
	if ((status <= 128)); then
		# End of output; a last line without a newline is still shown.
		[[ -n "$held$line" ]] && printf '%s%s\n' "$held" "$line"
		break
	fi
	held+="$line"
	now=$(date +%s)
	if ((now - last >= interval)); then
		printf '    ... %s: %s so far\n' "$name" "$(elapsed)"
		last=$now
	fi
done
wait "$pid"
status=$?
exec 3<&-
if ((status == 0)); then
	printf '==> %s done in %s\n' "$name" "$(elapsed)"
else
	printf '==> %s FAILED after %s (exit %d)\n' "$name" "$(elapsed)" "$status"
fi
exit "$status"
