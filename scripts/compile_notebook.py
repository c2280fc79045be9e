"""Write the notebook that scripts/run-notebooks.sh runs as its compile step.

    python3 scripts/compile_notebook.py OUT.ipynb NOTEBOOK.ipynb...

OUT has two code cells: the `!*go mod edit` cell that points a notebook's Go
module at this repository (taken from the first NOTEBOOK that has one), and
one cell importing every package any NOTEBOOK imports from this module or
from GoNB, so that running OUT makes the `go build` every notebook then finds
in the cache. The notebook is nbformat 4.5 (cells with IDs).
"""

import json
import re
import sys

IMPORT = re.compile(r'"((?:github\.com/linemem/linemem|github\.com/janpfeifer/gonb)/[A-Za-z0-9_./-]+)"')


def cells_of(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["cells"]


def main(out, notebooks):
    mod_edit = None
    imports = set()
    for nb in notebooks:
        for cell in cells_of(nb):
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            if mod_edit is None and src.startswith("!*go mod edit"):
                mod_edit = src
            imports.update(m for m in IMPORT.findall(src) if not m.endswith("/..."))
    if mod_edit is None:
        sys.exit("compile_notebook: no notebook has a `!*go mod edit` cell")
    body = "import (\n" + "".join(f'\t_ "{p}"\n' for p in sorted(imports)) + ")\n\n%%\n" + 'fmt.Println("compiled")'
    cells = [
        {"cell_type": "code", "execution_count": None, "id": "go-mod-edit", "metadata": {}, "outputs": [], "source": mod_edit},
        {"cell_type": "code", "execution_count": None, "id": "compile", "metadata": {}, "outputs": [], "source": body},
    ]
    nb = {
        "cells": cells,
        "metadata": {"kernelspec": {"display_name": "Go (gonb)", "language": "go", "name": "gonb"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: compile_notebook.py OUT.ipynb NOTEBOOK.ipynb...")
    main(sys.argv[1], sys.argv[2:])
