#!/usr/bin/env bash
# Open the notebooks in the classic Jupyter web UI with this clone's gonb
# kernel (scripts/jupyter-env.sh: kernel spec, runtime files and
# configuration under build/jupyter/). `make jupyter` runs
# scripts/setup-notebooks.sh first, which also installs Debian's
# jupyter-notebook when it is missing. Arguments go to `jupyter notebook`
# (e.g. --no-browser --port 8899); the folder is notebooks/ unless one
# of them is --notebook-dir=DIR.
#
# Environment:
#   JUPYTER  Jupyter launcher (default /usr/bin/jupyter, as set up).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
JUPYTER="${JUPYTER:-/usr/bin/jupyter}"
# shellcheck source=scripts/jupyter-env.sh
source scripts/jupyter-env.sh
if ! "$JUPYTER" notebook --version >/dev/null 2>&1; then
	echo "jupyter: \`$JUPYTER notebook\` is not installed (Debian: apt-get install jupyter-notebook; elsewhere: pip install notebook)" >&2
	exit 1
fi
dir_flag=(--notebook-dir="$repo/notebooks")
for arg in "$@"; do
	[[ "$arg" == --notebook-dir=* ]] && dir_flag=()
done
echo "==> jupyter notebook (kernel spec: build/jupyter/data/kernels/gonb; stop with Ctrl-C)"
exec "$JUPYTER" notebook "${dir_flag[@]}" "$@"
