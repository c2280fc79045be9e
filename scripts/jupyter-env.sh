# Sourced (not run) by the notebook scripts: a Jupyter that belongs to this
# checkout. Kernel specs, runtime files (connection files) and configuration
# live under build/jupyter/, so two clones never share a kernel spec and
# nothing is written under ~/.local/share/jupyter, ~/.jupyter or ~/.ipython.
#
#   build/jupyter/data/kernels/gonb/kernel.json   the gonb kernel of this clone
#   build/jupyter/runtime/                        kernel connection files
#   build/jupyter/config/                         Jupyter configuration (only its "migrated" marker)
#   build/jupyter/ipython/                        IPython's folder, which listing the python3 kernel creates
#
# Needs $repo (the repository root) set by the caller. Jupyter looks for a
# kernel spec in JUPYTER_PATH first, then in JUPYTER_DATA_DIR, then in the
# user's and the system's folders (read, never written), so this clone's gonb
# shadows any other one installed.
jupyter_dir="$repo/build/jupyter"
export JUPYTER_DATA_DIR="$jupyter_dir/data"
export JUPYTER_RUNTIME_DIR="$jupyter_dir/runtime"
export JUPYTER_CONFIG_DIR="$jupyter_dir/config"
export JUPYTER_PATH="$JUPYTER_DATA_DIR"
export IPYTHONDIR="$jupyter_dir/ipython"
export PATH="$repo/bin:$PATH"
mkdir -p "$JUPYTER_DATA_DIR" "$JUPYTER_RUNTIME_DIR" "$JUPYTER_CONFIG_DIR"
