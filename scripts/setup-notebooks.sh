#!/usr/bin/env bash
# Set up everything the GoNB notebooks in notebooks/ need. Safe to run again:
# each step is skipped or cheaply redone when its result is already there.
#
#   1. Jupyter (nbconvert + client) from Debian packages, installed only if
#      missing; apt's output goes to build/logs/apt-notebooks.log and one line
#      says what was installed.
#   2. bin/gonb and bin/goimports, built from the `tool` directives in go.mod
#      (GoNB v0.11.1 and goimports at the versions go.sum pins).
#   3. The "gonb" kernel spec of this clone, written into
#      build/jupyter/data/kernels/gonb (scripts/jupyter-env.sh) and told to find
#      bin/ (goimports) on its PATH. Nothing is written under ~/.local/share/jupyter.
#   4. A check that `jupyter kernelspec list` (with that environment) shows gonb.
#
# Debian/Ubuntu (run as root, or with sudo available):  scripts/setup-notebooks.sh
#
# macOS and other Linux distributions: install Jupyter yourself, then run this
# script with JUPYTER pointing at it; steps 2-4 are the same everywhere.
#   macOS:  brew install jupyterlab                  # or: python3 -m pip install --user jupyterlab
#   other:  python3 -m pip install --user nbconvert nbclient jupyter_client
#   then:   JUPYTER="$(command -v jupyter)" scripts/setup-notebooks.sh
#
# Environment:
#   JUPYTER      Jupyter launcher to install the kernel for (default /usr/bin/jupyter,
#                the Debian one; a pyenv or conda python3 on PATH is deliberately ignored).
#   JUPYTER_APT  extra Debian packages to install with Jupyter (make jupyter adds
#                jupyter-notebook, the classic web UI).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
JUPYTER="${JUPYTER:-/usr/bin/jupyter}"
# shellcheck disable=SC2206 # a list of package names
debian_packages=(jupyter-nbconvert jupyter-client python3-nbclient ${JUPYTER_APT:-})
# shellcheck source=scripts/jupyter-env.sh
source scripts/jupyter-env.sh

step() { printf '==> %s\n' "$*"; }

# --- 1. Jupyter ----------------------------------------------------------------
if [[ "$JUPYTER" == /usr/bin/jupyter ]] && command -v dpkg-query >/dev/null; then
	missing=()
	for p in "${debian_packages[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			missing+=("$p")
		fi
	done
	if ((${#missing[@]})); then
		sudo=()
		if ((EUID != 0)); then sudo=(sudo); fi
		mkdir -p build/logs
		apt_log=build/logs/apt-notebooks.log
		step "installing Debian packages: ${missing[*]} (apt's output: $apt_log)"
		apt_start=$(date +%s)
		if ! { "${sudo[@]}" flock /tmp/apt.lock apt-get update &&
			"${sudo[@]}" flock /tmp/apt.lock env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"; } >"$apt_log" 2>&1; then
			tail -n 20 "$apt_log" >&2
			echo "setup-notebooks: apt-get failed (above; full log in $apt_log)" >&2
			exit 1
		fi
		step "installed ${missing[*]} and $(grep -c '^Setting up ' "$apt_log") packages in all in $(($(date +%s) - apt_start))s (log: $apt_log)"
	else
		step "Debian Jupyter packages already installed"
	fi
fi
if [[ ! -x "$JUPYTER" ]]; then
	echo "setup-notebooks: no Jupyter at $JUPYTER; install it or set JUPYTER (see the top of $0)" >&2
	exit 1
fi
step "using $JUPYTER (nbconvert $("$JUPYTER" nbconvert --version))"

# --- 2. GoNB and goimports ------------------------------------------------------
# `go build` is incremental, so rebuilding is quick when nothing changed.
mkdir -p bin
step "building bin/gonb and bin/goimports from go.mod's tool directives"
go build -o bin/gonb github.com/janpfeifer/gonb
go build -o bin/goimports golang.org/x/tools/cmd/goimports
export PATH="$repo/bin:$PATH"

# --- 3. Kernel spec -------------------------------------------------------------
# GoNB writes kernels/gonb/kernel.json under $JUPYTER_DATA_DIR, this clone's
# build/jupyter/data. gopls only powers completion and hover in JupyterLab;
# without it GoNB refuses to install unless --force_deps.
data_dir="$JUPYTER_DATA_DIR"
install_flags=(--install --logtostderr)
if ! command -v gopls >/dev/null; then
	step "gopls not on PATH: installing without it (no completion/hover in JupyterLab)"
	install_flags+=(--force_deps)
fi
step "installing the gonb kernel spec into ${data_dir#"$repo"/}/kernels/gonb"
# Its log is shown only on failure: it would otherwise suggest `go install
# ...@latest` for goimports, which bin/ already provides at the pinned version.
if ! log="$(bin/gonb "${install_flags[@]}" 2>&1)"; then
	printf '%s\n' "$log" >&2
	echo "setup-notebooks: bin/gonb --install failed" >&2
	exit 1
fi

# The kernel runs goimports from PATH; Jupyter expands ${PATH} in a kernel
# spec's env (jupyter_client >= 7), so the kernel finds bin/ however Jupyter
# was started.
spec="$data_dir/kernels/gonb/kernel.json"
python="$(head -n1 "$JUPYTER" | sed -n 's/^#! *//p')"
[[ -x "${python%% *}" ]] || python=python3
BIN_DIR="$repo/bin" $python - "$spec" <<'EOF'
import json, os, sys
path = sys.argv[1]
with open(path) as f:
    spec = json.load(f)
spec.setdefault("env", {})["PATH"] = os.environ["BIN_DIR"] + ":${PATH}"
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
    f.write("\n")
EOF

# --- 4. Check -------------------------------------------------------------------
specs="$("$JUPYTER" kernelspec list 2>/dev/null)"
printf '%s\n' "$specs"
if ! grep -qE '^ +gonb ' <<<"$specs"; then
	echo "setup-notebooks: $JUPYTER kernelspec list does not show gonb" >&2
	exit 1
fi
step "GoNB $(bin/gonb -V 2>&1 | head -n1) ready; run notebooks with scripts/run-notebooks.sh, or open them with \`make jupyter\`"
