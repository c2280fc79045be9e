# nbconvert settings for scripts/run-notebooks.sh (loaded with --config).
#
# GoNB reports a cell whose Go program exits non-zero (a panic, log.Fatal,
# os.Exit(1)) or whose `!` shell command fails only as an "exit status N" line
# on stderr; the cell still counts as successful, so nbconvert would carry on.
# The hook below turns that line into a cell error, so a run stops at the first
# failing cell whatever way it fails.
import re

from nbclient.exceptions import CellExecutionError

c = get_config()  # noqa: F821 (provided by traitlets when it loads this file)

# The last words GoNB prints for a program that did not exit cleanly: the text
# of Go's *exec.ExitError ("exit status 2", "signal: killed").
_PROGRAM_FAILED = re.compile(r"^(exit status [1-9][0-9]*|signal: .+)$", re.MULTILINE)


def _fail_on_program_exit(cell, cell_index, execute_reply):
    stderr = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stderr":
            text = out.get("text", "")
            stderr.append("".join(text) if isinstance(text, list) else text)
    stderr = "".join(stderr)
    m = _PROGRAM_FAILED.search(stderr)
    if m:
        raise CellExecutionError.from_cell_and_msg(
            cell,
            {"ename": "ProgramFailed", "evalue": m.group(0), "traceback": [stderr]},
        )


c.ExecutePreprocessor.on_cell_executed = _fail_on_program_exit
# No wall-clock timestamps in cell metadata: an executed notebook depends only
# on what its cells print.
c.ExecutePreprocessor.record_timing = False
