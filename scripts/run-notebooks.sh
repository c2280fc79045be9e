#!/usr/bin/env bash
# Execute the GoNB notebooks headless, in order, and stop at the first failing
# cell. Run scripts/setup-notebooks.sh once before.
#
#   scripts/run-notebooks.sh                 # compile, then every notebooks/[0-9][0-9]_*.ipynb
#   scripts/run-notebooks.sh notebooks/02_rq1_representations.ipynb ...
#   scripts/run-notebooks.sh --compile-only  # only the compile step (make compile-notebooks)
#   scripts/run-notebooks.sh --no-compile    # skip it (make all runs it as its own step)
#   scripts/run-notebooks.sh --in-place      # write outputs back into notebooks/
#
# The compile step runs a generated notebook (build/notebooks/compile/) whose
# one cell imports every package the notebooks import, so the first `go build`
# GoNB makes of the library and its dependencies (minutes on a fresh Go
# cache: SQLite, gonum, kagome) is its own step, with a line every few
# seconds, and the notebooks after it compile from the cache.
#
# Executed copies, with outputs, go to build/notebooks/ by default, next to one
# NAME.log per notebook (nbconvert and kernel messages). --in-place writes
# them back over notebooks/ instead (`make notebooks-outputs`), after which
# scripts/order-outputs.py puts each cell's outputs in a stable order: GoNB
# sends a cell's printed text and its inline figures on separate channels, so
# their order can otherwise change from one run to the next.
#
# A cell fails when GoNB reports an error (e.g. a compile error) or when its
# program exits non-zero (panic, log.Fatal, a failing `!` command); see
# scripts/nbconvert_config.py.
#
# Environment:
#   JUPYTER            Jupyter launcher (default /usr/bin/jupyter, as set up).
#   NOTEBOOK_TIMEOUT   seconds one cell may run (default 1800).
#   PROGRESS_INTERVAL  seconds without output before a "... so far" line (default 10;
#                      5 for the compile step).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
JUPYTER="${JUPYTER:-/usr/bin/jupyter}"
timeout="${NOTEBOOK_TIMEOUT:-1800}"
out_dir="build/notebooks"

in_place=false
compile=true
execute=true
notebooks=()
for arg in "$@"; do
	case "$arg" in
	--in-place) in_place=true ;;
	--compile-only) execute=false ;;
	--no-compile) compile=false ;;
	-h | --help)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "run-notebooks: unknown flag $arg" >&2
		exit 2
		;;
	*) notebooks+=("$arg") ;;
	esac
done
if ((${#notebooks[@]} == 0)); then
	shopt -s nullglob
	notebooks=(notebooks/[0-9][0-9]_*.ipynb)
	shopt -u nullglob
fi
if ((${#notebooks[@]} == 0)); then
	echo "run-notebooks: no notebooks/[0-9][0-9]_*.ipynb" >&2
	exit 1
fi

if [[ ! -x bin/gonb || ! -x bin/goimports || ! -x "$JUPYTER" ]]; then
	echo "run-notebooks: missing bin/gonb, bin/goimports or $JUPYTER; run scripts/setup-notebooks.sh" >&2
	exit 1
fi
# shellcheck source=scripts/jupyter-env.sh
source scripts/jupyter-env.sh

# A headless variant of this clone's gonb kernel spec: the same binary, plus
# --raw_error so compile errors reach the log as plain text instead of HTML.
# JUPYTER_PATH is searched before JUPYTER_DATA_DIR, so it wins for these runs.
headless="$repo/$out_dir/jupyter"
mkdir -p "$headless/kernels/gonb"
cat >"$headless/kernels/gonb/kernel.json" <<EOF
{
 "argv": ["$repo/bin/gonb", "--kernel", "{connection_file}", "--logtostderr", "--raw_error"],
 "display_name": "Go (gonb)",
 "language": "go",
 "interrupt_mode": "message",
 "env": {"PATH": "$repo/bin:\${PATH}"}
}
EOF
export JUPYTER_PATH="$headless:$JUPYTER_PATH"

nbconvert=(
	"$JUPYTER" nbconvert --to notebook --execute
	--config scripts/nbconvert_config.py
	--ExecutePreprocessor.kernel_name=gonb
	"--ExecutePreprocessor.timeout=$timeout"
)

# execute NAME NOTEBOOK LOG [nbconvert flags...] runs one notebook under
# scripts/timed.sh, its nbconvert output in LOG, whose tail is shown on failure.
execute() {
	local name="$1" nb="$2" log="$3"
	shift 3
	if ! scripts/timed.sh "$name" sh -c '"$@" >"$0" 2>&1' "$log" "${nbconvert[@]}" "$@" "$nb"; then
		# The kernel's own info lines (I1129 ...) only add noise here.
		grep -Ev '^I[0-9]{4} ' "$log" | tail -n 60 >&2
		echo "run-notebooks: $nb failed; full log in $log" >&2
		exit 1
	fi
}

mkdir -p "$out_dir"
if $compile; then
	compile_dir="$out_dir/compile"
	mkdir -p "$compile_dir"
	python3 scripts/compile_notebook.py "$compile_dir/compile.ipynb" "${notebooks[@]}"
	PROGRESS_INTERVAL="${PROGRESS_INTERVAL:-5}" execute "compile the notebooks' packages with GoNB (go build)" \
		"$compile_dir/compile.ipynb" "$out_dir/compile.log" --output-dir "$compile_dir" --output compiled
fi
$execute || exit 0

total_start=$(date +%s)
for nb in "${notebooks[@]}"; do
	name="$(basename "$nb" .ipynb)"
	if $in_place; then
		execute "$nb (in place)" "$nb" "$out_dir/$name.log" --inplace
		python3 scripts/order-outputs.py "$nb"
	else
		execute "$nb" "$nb" "$out_dir/$name.log" --output-dir "$out_dir"
	fi
done
if $in_place; then
	printf '==> %d notebook(s) ok in %ds, outputs written into them\n' "${#notebooks[@]}" "$(($(date +%s) - total_start))"
else
	printf '==> %d notebook(s) ok in %ds; executed copies and logs in %s/\n' "${#notebooks[@]}" "$(($(date +%s) - total_start))" "$out_dir"
fi
