"""What the test files share: the repository's root, the browser tests' Chromium, the exercise
checkers' contract, and the widget factories with the values a student drags their controls through.

A plain module (``from helpers import ROOT``), not conftest.py: pytest imports conftest.py itself, and
advises against importing from it. tests/ has no ``__init__.py``, so pytest's default import mode
(prepend) puts tests/ on ``sys.path`` for every test file and this module is found by its name.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

#: The repository's root: tests/ is one level below it.
ROOT = Path(__file__).resolve().parent.parent
#: Where browser tests leave their screenshots.
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: The tools a test may need and what to install for each. Where one is missing its tests are skipped, the reason
#: saying what to install, and the run ends with one line per tool saying how many were skipped (conftest.py). CI,
#: which installs them, sets DPTEACH_REQUIRE="bubblewrap chromium": there a test that would skip fails instead.
INSTALL_HINTS = {
    "chromium": "browser tests need Chromium: run `apt-get install -y chromium` (Debian) to enable them",
    "bubblewrap": "grading students' code needs bubblewrap: run `apt-get install -y bubblewrap` (Debian, Ubuntu; "
                  "`dnf install bubblewrap` on Fedora) to enable these tests; macOS has none: grade in a Linux container",
}


def required_tools() -> set[str]:
    """The tools this run must have (``DPTEACH_REQUIRE``, space- or comma-separated): CI sets it."""
    import os
    return {t for t in os.environ.get("DPTEACH_REQUIRE", "").replace(",", " ").split() if t}


#: Browser tests drive Debian's Chromium; where it is missing they are skipped, saying how to enable them.
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and "chromium" not in required_tools(), reason=INSTALL_HINTS["chromium"])



def missing(tool: str) -> bool:
    """True where ``tool`` (a key of INSTALL_HINTS) is not on PATH and this run does not require it: a test that
    needs it then skips; where the run requires it (CI), it runs, and fails without it."""
    program = {"bubblewrap": "bwrap"}.get(tool, tool)
    return shutil.which(program) is None and tool not in required_tools()


_SANDBOX_PROBLEM: list = []


def needs_sandbox() -> None:
    """Call first in a test or fixture that grades students' code in bubblewrap: skips the test where bubblewrap
    is missing or cannot start here, saying what to install (a newcomer's laptop, macOS); fails it where the run
    requires bubblewrap (CI)."""
    from dpteach.course import sandbox
    if not _SANDBOX_PROBLEM:
        try:
            sandbox.require()
            _SANDBOX_PROBLEM.append(None)
        except sandbox.SandboxUnavailable as error:
            _SANDBOX_PROBLEM.append(str(error))
    problem = _SANDBOX_PROBLEM[0]
    if problem is None:
        return
    if "bubblewrap" in required_tools():
        pytest.fail(f"this run requires bubblewrap (DPTEACH_REQUIRE), and: {problem}")
    pytest.skip(INSTALL_HINTS["bubblewrap"])


def axe_source() -> str:
    """axe-core's script, from the npm registry (``npm pack``), cached beside the other npm packages."""
    import tarfile

    from dpteach.publish.assets import npm_pack
    from dpteach.publish.paths import Project
    tgz = npm_pack("axe-core", "4.14.1", Project(ROOT).npm_cache)
    with tarfile.open(tgz) as tar:
        return tar.extractfile("package/axe.min.js").read().decode()


def make(*args: str, check: bool = False) -> subprocess.CompletedProcess:
    """``make -s ARGS`` in the repository, its output captured. ``--no-print-directory``: run from inside
    another make (``make -C``, ``make bench`` timing ``make test``), make would otherwise print
    "Entering directory" around what the target prints."""
    return subprocess.run(["make", "-s", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True,
                          check=check)


def assert_checker_contract(check, right, wrong) -> None:
    """Every exercise checker: ✅ for the right answer, ❌ for a wrong one, "your turn" for ... or None,
    and ❌ (not a crash) for a word or NaN."""
    assert check(right).correct is True
    verdict = check(wrong)
    assert verdict.correct is False and "Not quite" in repr(verdict)
    assert check(...).correct is None and check(None).correct is None
    assert check("a word").correct is False
    assert check(float("nan")).correct is False


def sensitivity_by_enumeration(norm):
    """A student's ``my_l1_sensitivity`` for the checker: chapter 01's solution (every database with room
    for one more record, plus one record of each type), measuring the change of f with ``norm``. With the
    ℓ1 norm it is the reference solution; with another norm, a typical wrong one."""
    import dpteach as dp

    def solution(f, universe, max_size):
        largest = 0.0
        for x in dp.all_databases(len(universe), max_size):
            if x.sum() == max_size:
                continue
            for i in range(len(universe)):
                y = x.copy()
                y[i] += 1
                largest = max(largest, norm(np.atleast_1d(f(y)) - np.atleast_1d(f(x))))
        return largest
    return solution


# -- the widgets ------------------------------------------------------------------------------------

def _returns_interactive(func) -> bool:
    from dpteach.widgets import Interactive

    annotation = inspect.signature(func).return_annotation
    return annotation is Interactive or (isinstance(annotation, str) and annotation.split(".")[-1] == "Interactive")


def widget_factories() -> dict[str, object]:
    """Every public function of dpteach.widgets and its submodules that returns an Interactive, by its
    module path (``dpteach.widgets.laplace.laplace_density``), sorted. Nothing lists the widgets by hand:
    a factory added to any submodule is found. A function re-exported under two paths is listed once."""
    from dpteach import widgets

    modules = [widgets] + [importlib.import_module(f"{widgets.__name__}.{m.name}")
                           for m in pkgutil.iter_modules(widgets.__path__) if not m.name.startswith("_")]
    found = {}
    for module in modules:
        for name, obj in vars(module).items():
            if (not name.startswith("_") and inspect.isfunction(obj)
                    and obj.__module__.startswith(widgets.__name__) and _returns_interactive(obj)):
                found[f"{obj.__module__}.{name}"] = obj
    unique = {}
    for key, obj in sorted(found.items()):
        unique.setdefault(id(obj), (key, obj))
    return dict(sorted(unique.values()))


def control_values(control, n: int = 5, *, every_option: bool = False) -> list:
    """The values a student drags ``control`` through: ``n`` across a slider's whole range, ends included
    (a log slider's spread over its exponents; an integer slider's rounded); both states of a toggle, the
    other one first; the options of a selection, every one of them if ``every_option`` or if there are at
    most ``n``, else ``n`` of them spread from the first to the last."""
    if isinstance(control.value, bool):
        return [not control.value, control.value]
    if hasattr(control, "options") and not hasattr(control, "min"):
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        if every_option or len(options) <= n:
            return options
        return [options[i] for i in sorted({round(i) for i in np.linspace(0, len(options) - 1, n)})]
    if hasattr(control, "base"):
        grid = control.base ** np.linspace(control.min, control.max, n)
    else:
        grid = np.linspace(control.min, control.max, n)
    return [type(control.value)(round(v) if isinstance(control.value, int) else v) for v in grid]


def pixels_off_a_full_draw(figure) -> int:
    """How many pixels of the figure's blitted frame differ from a full ``canvas.draw()`` of the same state.

    Anti-aliased edges may differ by a level or two where an overlay is composited; an artist that
    ``update`` changes but ``figure.dynamic`` does not list keeps its old pixels and differs by far more
    (over 40 levels)."""
    from dpteach import plots

    blit = figure.frame()[:, :, :3].astype(int)
    with plots.styled():              # as the package draws (a tick locator reads the style's label size)
        figure.fig.canvas.draw()
    full = np.asarray(figure.fig.canvas.buffer_rgba())[:, :, :3].astype(int)
    assert blit.shape == full.shape
    return int((np.abs(blit - full).max(axis=2) > 40).sum())
