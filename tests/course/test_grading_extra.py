"""Grading needs only the `grading` extra: a grading run in a process that can import no installed package but
requirements/grading.lock.txt's (no Playwright, no Sphinx or MyST, no JupyterLab, no peer library, no test tool)
grades a submission as usual.

The blocker is a ``sitecustomize`` on the process's path, so that every process of the run (the grader, its
workers) refuses those imports, as an environment without them would.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys

from helpers import ROOT, needs_sandbox
from submissions import MANIFEST, RIGHT, submission

#: What must be refused, whatever else is: the browser driver, the book, the lab, the peers.
ABSENT = ("playwright", "sphinx", "myst_nb", "myst_parser", "jupyterlab", "dp_accounting", "diffprivlib", "sklearn")

BLOCKER = """
import importlib.metadata
import sys

ALLOWED = {allowed!r}


def _tops(dist):
    # a distribution's top-level modules: its top_level.txt, else the first part of its files' paths (Python 3.10's
    # packages_distributions() reads only top_level.txt, which scipy's and numpy's wheels do not have)
    declared = dist.read_text("top_level.txt")
    if declared:
        return set(declared.split())
    tops = set()
    for file in dist.files or ():
        if len(file.parts) > 1 and not file.parts[0].endswith((".dist-info", ".data")) and file.parts[0] != "..":
            tops.add(file.parts[0])
        elif len(file.parts) == 1 and file.suffix == ".py":
            tops.add(file.stem)
    return tops


def _allowed(dist):
    return (dist.metadata["Name"] or "").lower().replace("_", "-") in ALLOWED


_DISTS = list(importlib.metadata.distributions())
_KEPT = set().union(*(_tops(d) for d in _DISTS if _allowed(d)))
BLOCKED = (set().union(*(_tops(d) for d in _DISTS if not _allowed(d))) - _KEPT) | {absent!r}

class _NotInTheGradingLock:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked: not in dpteach[grading])", name=name)
        return None

sys.meta_path.insert(0, _NotInTheGradingLock())
"""


def _grading_lock() -> set[str]:
    text = (ROOT / "requirements" / "grading.lock.txt").read_text(encoding="utf-8")
    return {re.split(r"[=<>; ]", line, maxsplit=1)[0].lower().replace("_", "-") for line in text.splitlines()
            if line and not line.startswith((" ", "#"))}


def test_grading_runs_without_the_browser_the_book_or_the_peers(tmp_path):
    needs_sandbox()
    (tmp_path / "site").mkdir()
    # the lock's packages, dpteach itself, and pip's and setuptools' start-up hooks (in every venv)
    allowed = _grading_lock() | {"dpteach", "pip", "setuptools"}
    blocker = BLOCKER.format(allowed=allowed, absent=set(ABSENT))
    (tmp_path / "site" / "sitecustomize.py").write_text(blocker, encoding="utf-8")
    course = tmp_path / "course.json"
    course.write_text(json.dumps(MANIFEST), encoding="utf-8")
    (tmp_path / "in").mkdir()
    submission(tmp_path / "in", "ada", RIGHT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT),
                                                         os.environ.get("PYTHONPATH", "")])}
    for module in ("playwright", "sphinx", "nbclient", "scipy"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], env=env, capture_output=True, text=True)
        assert "blocked: not in dpteach[grading]" in probe.stderr, f"the blocker must refuse {module}"
    done = subprocess.run([sys.executable, "-m", "dpteach", "grade", "--course", str(course), str(tmp_path / "in"),
                           "--out", str(tmp_path / "graded"), "--jobs", "1", "--timeout", "30", "--cell-timeout", "10",
                           "--function-timeout", "5", "--memory", "1024"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    with open(tmp_path / "graded" / "gradebook.csv", encoding="utf-8") as table:
        rows = {row["id"]: row for row in csv.DictReader(table)}
    possible = sum(e["points"] for chapter in MANIFEST["chapters"].values() for e in chapter["exercises"])
    assert rows["ada"]["total"] == str(possible), rows
