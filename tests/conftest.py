import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

# The shared names live in tests/helpers.py: test files import them from there, never from this file.
from helpers import CHROMIUM, INSTALL_HINTS

# `filterwarnings = error` (pyproject) acts in the pytest process only. The kernels that nbval, nbclient
# and nbconvert start for the notebooks treat warnings as errors too, so that a library's
# DeprecationWarning inside a chapter fails its cell instead of passing silently. The filter is set by a
# start-up file of the kernel's IPython profile (IPYTHONDIR, inherited by every kernel the tests start),
# and only when the kernel is asked to execute code for the first time: the kernel's own start-up keeps
# Python's default filters. Not PYTHONWARNINGS=error: that reaches the start-up too, where on Python 3.13
# ipykernel's tornado IOLoop.current() calls asyncio.get_event_loop(), which warns "There is no current
# event loop" (a DeprecationWarning), and the kernel died before replying to kernel_info.
KERNEL_WARNINGS = """\
# Written by tests/conftest.py. In the kernels the tests start, any warning raised by the code a cell runs
# is an error; set before the first execution, once the kernel has started (its start-up may warn).
import warnings


def _dpteach_warnings_are_errors(*args):
    warnings.simplefilter("error")
    get_ipython().events.unregister("pre_execute", _dpteach_warnings_are_errors)


get_ipython().events.register("pre_execute", _dpteach_warnings_are_errors)
"""
IPYTHONDIR = Path(tempfile.mkdtemp(prefix="dpteach-ipython-"))
atexit.register(shutil.rmtree, IPYTHONDIR, ignore_errors=True)
(IPYTHONDIR / "profile_default" / "startup").mkdir(parents=True)
(IPYTHONDIR / "profile_default" / "startup" / "00-warnings-are-errors.py").write_text(KERNEL_WARNINGS)
os.environ["IPYTHONDIR"] = str(IPYTHONDIR)


def _nbval_closes_its_devnull() -> None:
    """nbval 0.11.0 starts each notebook's kernel with ``stderr=open(os.devnull, 'w')`` and never closes
    that file (nbval.kernel.RunningKernel; upstream computationalmodelling/nbval#201): when the kernel
    manager holding it is collected, the ResourceWarning "unclosed file <_io.FileIO name='/dev/null'
    mode='wb'>" fails whichever test is running then (PytestUnraisableExceptionWarning; seen on
    Python 3.13). Same kernel, same silenced stderr: subprocess.DEVNULL, which Popen opens and closes."""
    try:
        from nbval import kernel
    except ImportError:        # nbval not installed: no notebooks are collected either
        return
    start = kernel.start_new_kernel
    if getattr(start, "closes_devnull", False):
        return

    def start_new_kernel(*args, stderr=None, **kwargs):
        if getattr(stderr, "name", None) == os.devnull and hasattr(stderr, "close"):
            stderr.close()
            stderr = subprocess.DEVNULL
        return start(*args, stderr=stderr, **kwargs)

    start_new_kernel.closes_devnull = True
    kernel.start_new_kernel = start_new_kernel


_nbval_closes_its_devnull()

@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (never a browser downloaded by playwright), kept off the network."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic"])
        yield b
        b.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """The browser tests (tests/test_browser_*.py) are the slow tier's (make test-slow, make check): before
    `-m "not slow"` deselects, so `make test` leaves them out."""
    for item in items:
        if item.path.name.startswith("test_browser_"):
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter):
    """One loud line per missing tool at the end of the run: how many tests it skipped and what to install
    (a newcomer's `make test` without bubblewrap passes, and says what it did not test)."""
    skipped = terminalreporter.stats.get("skipped", [])
    for hint in INSTALL_HINTS.values():
        count = sum(hint in str(getattr(report, "longrepr", "")) for report in skipped)
        if count:
            terminalreporter.write_sep("!", f"{count} test{'s' if count > 1 else ''} SKIPPED: {hint}",
                                       yellow=True, bold=True)
