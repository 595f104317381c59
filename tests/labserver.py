"""A JupyterLab server and the browser steps a student takes, shared by the browser tests and the
browser benchmark (benchmarks/browser.py): start the lab on 127.0.0.1, open a notebook, run all
cells once the kernel is really ready, stop the lab patiently.

A tool of the tests, not of the package (it is not in the wheel): the tests import it as ``labserver``
(tests/ is on their path), the benchmark puts tests/ on its path first. It works in the folder it is run
from (the project's root) or the ``root`` it is given. Standard library only at import time;
the page arguments are playwright pages.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

#: Where screenshots of a failed step go, under the folder run from (as the tests' own artifacts/).
ARTIFACTS = Path("artifacts") / "screenshots"

#: True once the open notebook's kernel is started, connected and idle. The status bar says
#: "Idle" earlier than that, and a Run All clicked in between starts a second kernel that
#: replaces the first: the first cell runs and the rest are cancelled (seen on a cold start;
#: upstream, jupyterlab/jupyterlab#8490; the README tells students what to do).
KERNEL_READY = """() => {
    const context = window.jupyterapp?.shell?.currentWidget?.sessionContext;
    const kernel = context?.session?.kernel;
    return !!(context?.isReady && kernel?.connectionStatus === 'connected' && kernel?.status === 'idle');
}"""


#: True once the open notebook's kernel is ready and no code cell of its model is running or queued
#: (a cell's execution_state; the prompts of cells out of view are not in the page to read).
ALL_CELLS_DONE = """() => {
    const notebook = window.jupyterapp?.shell?.currentWidget?.content;
    const cells = notebook?.model?.cells;
    if (!cells) return false;
    for (let i = 0; i < cells.length; i++) {
        const cell = cells.get(i);
        if (cell.type === 'code' && cell.executionState === 'running') return false;
    }
    return (""" + KERNEL_READY + """)();
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_lab(python: str | Path | None = None, root: Path | None = None, extra: tuple[str, ...] = (),
                env: dict[str, str] | None = None):
    """A JupyterLab server over ``root``, as `make lab` starts it, with the application exposed as
    `window.jupyterapp` so a test can ask whether the kernel is ready. ``python`` picks the venv
    (default: this one), ``root`` the folder served (default: the current directory), ``env`` adds
    variables. Yields (base URL, token)."""
    root = Path.cwd() if root is None else Path(root)
    port, token = free_port(), "dpteach-test-token"
    jupyter = Path(python).with_name("jupyter") if python else Path(sys.executable).with_name("jupyter")
    # Not the tests' warnings-as-errors (conftest.py's PYTHONWARNINGS and kernel start-up file): the server's own
    # extensions (jupyter_lsp, notebook_shim, jupytext's contents manager) warn at start-up, and
    # under -W error they fail to load. nbval runs the chapters' code with warnings as errors.
    env = {**{k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "IPYTHONDIR")}, **(env or {})}
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    proc = subprocess.Popen(
        [str(jupyter), "lab", "--no-browser", "--allow-root",
         f"--ServerApp.port={port}", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=root)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2).close()
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("JupyterLab did not start within 120 s")
        yield base, token
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """JupyterLab shuts its kernels down before it exits: give it time, then insist."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)


def open_notebook(browser, lab, path: str, viewport=(1400, 1000), init_script: str | None = None):
    """A new page with ``path`` open in the lab, and the list its page errors go to. ``init_script`` (JavaScript)
    runs in the page before the lab's own code (the browser benchmark wraps the WebSocket with it)."""
    base, token = lab
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    if init_script:
        page.add_init_script(init_script)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/lab/tree/{path}?token={token}&reset", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    return page, errors


def run_all(page, name: str) -> None:
    """Run → Run All Cells, as a student would, once the kernel is ready. A fresh kernel has no
    widget models, so the sliders appear only once the cells have run. Should the click still be
    lost, the menu is tried again, up to three times. Raises RuntimeError if no slider appears."""
    for attempt in range(3):
        page.wait_for_function(KERNEL_READY, timeout=90_000)
        try:
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click(timeout=10_000)
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click(timeout=10_000)
            page.wait_for_selector(".widget-slider", state="attached", timeout=60_000)
            break
        except Exception:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"lab_{name}_attempt{attempt}.png"))
            page.keyboard.press("Escape")
    else:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"lab_{name}_no_slider.png"))
        raise RuntimeError("no slider appeared after Run All Cells (screenshot in artifacts/)")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=120_000)
    # The indicator and the kernel read "idle" for a moment between two queued cells: wait until no cell of the
    # notebook's model is running or queued, twice half a second apart, so that nothing (a cell becoming active,
    # an output arriving) moves the page once the caller starts pressing keys.
    for _ in range(2):
        page.wait_for_function(ALL_CELLS_DONE, timeout=120_000)
        page.wait_for_timeout(500)
    page.wait_for_function(ALL_CELLS_DONE, timeout=120_000)
