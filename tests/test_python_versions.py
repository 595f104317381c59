"""Every Python the README claims: what broke on 3.13, and the promise that CI keeps the claim true.

On Python 3.13 `make test` failed in two ways that had nothing to do with the chapters: the kernels
died at start-up (PYTHONWARNINGS=error reached tornado's asyncio.get_event_loop() DeprecationWarning
inside the kernel's start-up), and nbval's kernels left /dev/null open, so a ResourceWarning failed
whichever test ran when the file was collected. These tests check both on the Python they run on;
`make test-python` (run by CI) runs them on the oldest and the newest Python the README claims.
"""

import gc
import os
import re
import sys
import warnings

from helpers import ROOT

try:
    import tomllib
except ModuleNotFoundError:      # Python 3.10
    import tomli as tomllib


def test_nbval_kernels_leave_no_file_open(tmp_path):
    """A kernel nbval starts and stops leaves no unclosed /dev/null behind (a ResourceWarning when collected)."""
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, RunningKernel
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel = RunningKernel(CURRENT_ENV_KERNEL_NAME, cwd=str(tmp_path))
        kernel.stop()
        del kernel
        gc.collect()
    leaks = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert not leaks, leaks


def test_kernels_start_and_only_the_cells_code_has_warnings_as_errors(tmp_path):
    """The kernel answers (its start-up ran with Python's default filters) and then runs cells under "error"."""
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, RunningKernel
    assert "PYTHONWARNINGS" not in os.environ or os.environ["PYTHONWARNINGS"] != "error"
    kernel = RunningKernel(CURRENT_ENV_KERNEL_NAME, cwd=str(tmp_path))
    try:
        msg_id = kernel.execute_cell_input("import warnings, sys; print(warnings.filters[0][0], sys.warnoptions)",
                                           allow_stdin=False)
        text = ""
        while True:
            msg = kernel.get_message("iopub", timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                text += msg["content"]["text"]
            assert msg["msg_type"] != "error", msg["content"]
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        assert text.strip() == "error []"
    finally:
        kernel.stop()


def _requires_python() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]


def test_ci_tests_the_oldest_and_the_newest_python_the_readme_claims():
    """README, requires-python and the Pythons `make test-python` runs (CI runs it) tell one story."""
    oldest = re.fullmatch(r">=\s*3\.(\d+)", _requires_python())
    assert oldest, _requires_python()
    readme = (ROOT / "README.md").read_text()
    assert f"Python ≥ 3.{oldest.group(1)}" in readme
    makefile = (ROOT / "Makefile").read_text()
    pythons = re.search(r"^PYTHONS\s*\?=\s*(.+)$", makefile, re.M).group(1).split()
    assert pythons[0] == f"3.{oldest.group(1)}", pythons
    newest = pythons[-1]
    assert re.search(rf"tested on Python 3\.{oldest.group(1)} to {re.escape(newest)}", readme), \
        "the README says which Pythons are tested"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    assert "make test-python" in ci and ci.index("make test-python") > ci.index("make check")


def test_this_python_is_one_the_readme_claims():
    major, minor = (int(x) for x in re.fullmatch(r">=\s*(\d+)\.(\d+)", _requires_python()).groups())
    assert sys.version_info[:2] >= (major, minor), f"Python {sys.version_info[:2]} is older than requires-python"
