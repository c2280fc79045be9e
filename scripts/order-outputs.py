"""Put each code cell's outputs in a stable order, in place.

    python3 scripts/order-outputs.py NOTEBOOK.ipynb...

GoNB sends what a cell prints (stream outputs) and what it displays (figures,
HTML, Markdown: display_data) on separate channels, so in an executed notebook
their interleaving can change from one run to the next. This writes each
cell's outputs as: its stdout text (one output), its stderr text (one
output), then every other output in the order received. Run by
`scripts/run-notebooks.sh --in-place` after each notebook.
"""

import json
import sys


def text_of(out):
    t = out.get("text", "")
    return "".join(t) if isinstance(t, list) else t


def ordered(outputs):
    streams = {"stdout": "", "stderr": ""}
    rest = []
    for out in outputs:
        if out.get("output_type") == "stream" and out.get("name") in streams:
            streams[out["name"]] += text_of(out)
        else:
            rest.append(out)
    head = [{"name": name, "output_type": "stream", "text": text.splitlines(keepends=True)} for name, text in streams.items() if text]
    return head + rest


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"] = ordered(cell.get("outputs", []))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(nb, f, indent=1, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
