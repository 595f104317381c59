"""A machine without bubblewrap (a newcomer's laptop, macOS) passes ``make test``: the tests that grade students'
code in the sandbox are skipped, and the run ends with a line saying how many and what to install. CI, which
installs bubblewrap, sets ``DPTEACH_REQUIRE``: there the same tests fail instead of skipping."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from helpers import INSTALL_HINTS, ROOT

GRADING_TEST = '''
from helpers import needs_sandbox

def test_grades_in_the_sandbox():
    needs_sandbox()

def test_needs_nothing():
    pass
'''


def _run(tmp_path, require: str) -> subprocess.CompletedProcess:
    for name in ("conftest.py", "helpers.py"):
        shutil.copy(ROOT / "tests" / name, tmp_path / name)
    (tmp_path / "test_grading_here.py").write_text(GRADING_TEST)
    empty = tmp_path / "bin"              # a PATH on which there is no bwrap
    empty.mkdir(exist_ok=True)
    env = dict(os.environ, PATH=str(empty), DPTEACH_REQUIRE=require, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-c", os.devnull,
                           "--rootdir", str(tmp_path), str(tmp_path)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_without_bubblewrap_the_sandboxed_tests_skip_with_one_line_saying_what_to_install(tmp_path):
    run = _run(tmp_path, require="")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 1 skipped" in run.stdout
    assert f"1 test SKIPPED: {INSTALL_HINTS['bubblewrap']}" in run.stdout


def test_where_the_run_requires_bubblewrap_a_missing_one_fails_the_tests_instead(tmp_path):
    run = _run(tmp_path, require="bubblewrap chromium")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout and "requires bubblewrap" in run.stdout
