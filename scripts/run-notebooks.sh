#!/usr/bin/env bash
# Execute the GoNB notebooks headless, in order, and stop at the first failing
# cell. Run scripts/setup-notebooks.sh once before.
#
#   scripts/run-notebooks.sh                 # every notebooks/[0-9][0-9]_*.ipynb
#   scripts/run-notebooks.sh notebooks/02_rq1_representations.ipynb ...
#   scripts/run-notebooks.sh --in-place      # write outputs back into notebooks/
#
# Executed copies, with outputs, go to build/notebooks/ by default, next to one
# NAME.log per notebook (nbconvert and kernel messages). They are not written
# back over notebooks/ because GoNB sends a cell's printed text and its inline
# figures on separate channels: when a cell does both, their order in the saved
# notebook can change from one run to the next. Use --in-place to refresh the
# outputs committed with the notebooks, and review the diff.
#
# A cell fails when GoNB reports an error (e.g. a compile error) or when its
# program exits non-zero (panic, log.Fatal, a failing `!` command); see
# scripts/nbconvert_config.py.
#
# Environment:
#   JUPYTER           Jupyter launcher (default /usr/bin/jupyter, as set up).
#   NOTEBOOK_TIMEOUT  seconds one cell may run (default 1800).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
JUPYTER="${JUPYTER:-/usr/bin/jupyter}"
timeout="${NOTEBOOK_TIMEOUT:-1800}"
out_dir="build/notebooks"

in_place=false
notebooks=()
for arg in "$@"; do
	case "$arg" in
	--in-place) in_place=true ;;
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
export PATH="$repo/bin:$PATH"

# A private copy of the gonb kernel spec for headless runs: the same binary as
# the installed kernel, plus --raw_error so compile errors reach the log as
# plain text instead of HTML. JUPYTER_PATH is searched before the user's specs.
mkdir -p "$out_dir/jupyter/kernels/gonb"
cat >"$out_dir/jupyter/kernels/gonb/kernel.json" <<EOF
{
 "argv": ["$repo/bin/gonb", "--kernel", "{connection_file}", "--logtostderr", "--raw_error"],
 "display_name": "Go (gonb)",
 "language": "go",
 "interrupt_mode": "message",
 "env": {"PATH": "$repo/bin:\${PATH}"}
}
EOF
export JUPYTER_PATH="$repo/$out_dir/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"

nbconvert=(
	"$JUPYTER" nbconvert --to notebook --execute
	--config scripts/nbconvert_config.py
	--ExecutePreprocessor.kernel_name=gonb
	"--ExecutePreprocessor.timeout=$timeout"
)
if $in_place; then
	nbconvert+=(--inplace)
else
	nbconvert+=(--output-dir "$out_dir")
fi

total_start=$(date +%s)
for nb in "${notebooks[@]}"; do
	name="$(basename "$nb" .ipynb)"
	log="$out_dir/$name.log"
	printf '==> %s ... ' "$nb"
	start=$(date +%s)
	if ! "${nbconvert[@]}" "$nb" >"$log" 2>&1; then
		printf 'FAILED after %ds\n' "$(($(date +%s) - start))"
		# The kernel's own info lines (I1129 ...) only add noise here.
		grep -Ev '^I[0-9]{4} ' "$log" | tail -n 60 >&2
		echo "run-notebooks: $nb failed; full log in $log" >&2
		exit 1
	fi
	if $in_place; then
		printf 'ok in %ds (outputs written into %s)\n' "$(($(date +%s) - start))" "$nb"
	else
		printf 'ok in %ds -> %s/%s.ipynb\n' "$(($(date +%s) - start))" "$out_dir" "$name"
	fi
done
printf '==> %d notebook(s) ok in %ds\n' "${#notebooks[@]}" "$(($(date +%s) - total_start))"
