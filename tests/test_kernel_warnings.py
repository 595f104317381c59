"""The notebooks' kernels treat warnings as errors, as the pytest process does.

pyproject's `filterwarnings = error` reaches only the pytest process; the kernels nbval starts
for the chapters are other processes. conftest.py gives every kernel the tests start an IPython
start-up file (through IPYTHONDIR) that makes warnings errors at the kernel's first execution:
PYTHONWARNINGS=error would also reach the kernel's own start-up, which warns on Python 3.13.
These tests start a kernel with nbval's own function, as (`--nbval-current-env`) and show
that a library's DeprecationWarning, silent by default outside __main__, now fails the cell.
"""

import os
import subprocess
import textwrap

import pytest
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, start_new_kernel


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernel")
    (folder / "old_library.py").write_text(textwrap.dedent("""
        import warnings

        def old_api():
            warnings.warn("old_api is deprecated", DeprecationWarning, stacklevel=2)
            return 42
    """))
    km, kc = start_new_kernel(kernel_name=CURRENT_ENV_KERNEL_NAME, cwd=str(folder), stderr=subprocess.DEVNULL)
    yield kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def _run(kernel, code: str) -> list[dict]:
    """Execute ``code`` and return the iopub messages it produced, up to the kernel going idle."""
    msg_id = kernel.execute(code, store_history=False, allow_stdin=False)
    messages = []
    while True:
        msg = kernel.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return messages
        messages.append(msg)


def test_the_kernel_runs_cells_with_warnings_as_errors(kernel):
    assert os.environ.get("PYTHONWARNINGS") != "error"   # would reach the kernel's start-up (Python 3.13)
    out = _run(kernel, "import warnings, sys; print(warnings.filters[0][0], sys.warnoptions)")
    assert "".join(m["content"].get("text", "") for m in out if m["msg_type"] == "stream").strip() == "error []"


def test_a_library_deprecation_warning_fails_the_cell(kernel):
    out = _run(kernel, "import old_library\nold_library.old_api()")
    errors = [m["content"] for m in out if m["msg_type"] == "error"]
    assert errors and errors[0]["ename"] == "DeprecationWarning", out


def test_a_clean_cell_still_runs(kernel):
    out = _run(kernel, "print(6 * 7)")
    assert not [m for m in out if m["msg_type"] == "error"]
    assert "42" in "".join(m["content"].get("text", "") for m in out if m["msg_type"] == "stream")
