"""The one notebook executor: a chapter run top to bottom in a fresh kernel, its widget state stored.

``make execute`` (in place: the stored outputs students see), ``make build/executed`` (copies for
the book), ``make slides`` (copies whose figures are drawn for a projector) and the book's and the
slides' own fallback all run chapters through :func:`execute_notebook` (nbclient), so a chapter is
executed the same way wherever it is.

The kernel talks to the build over IPC (Unix sockets in a private temporary folder), not TCP on the
loopback: nothing else on the machine can connect to it, and ipykernel has no reason to print "Kernel
is running over TCP without encryption" into the terminal once per chapter.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

#: Seconds a cell may run before the execution fails.
TIMEOUT = 600


def execute_notebook(path: Path, out: Path | None = None, timeout: int = TIMEOUT, presentation: bool = False):
    """Run the notebook at ``path`` top to bottom in a fresh ``python3`` kernel whose working
    directory is the notebook's folder; store its outputs (a cell's stream in one piece) and widget
    state (no timing metadata) and write it to ``out`` (a file; ``path`` itself for in place, or
    None not to write). ``presentation``: every figure projector-sized (DPTEACH_PRESENTATION=1, as
    ``make present`` runs its kernel; :func:`dpteach.plots.presentation`). Returns the executed notebook."""
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config

    path = Path(path)
    if timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    nb = nbformat.read(path, as_version=4)
    env = {**os.environ, "DPTEACH_PRESENTATION": "1" if presentation else "0"}
    with tempfile.TemporaryDirectory(prefix="dpteach-kernel-") as sockets:
        # the kernel manager nbclient makes (and shuts down) reads its transport from this configuration
        ipc = Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(sockets, "kernel")}})
        # coalesce_streams: a cell's printing is one output however the kernel's messages happened to be
        # cut (they follow the timing of flushes), so stored outputs do not change from run to run.
        client = NotebookClient(nb, config=ipc, timeout=timeout, kernel_name="python3", record_timing=False,
                                coalesce_streams=True, store_widget_state=True,
                                resources={"metadata": {"path": str(path.parent)}})
        client.execute(env=env)
    if out is not None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
    return nb


def execute(chapter, out_dir: Path, timeout: int = TIMEOUT, presentation: bool = False):
    """Run a :class:`dpteach.book.Chapter` (cwd = its folder) into ``out_dir``/its file name; return the notebook."""
    return execute_notebook(chapter.path, Path(out_dir) / chapter.path.name, timeout=timeout, presentation=presentation)
