"""Grading as an ordinary user: what an instructor without root runs (slow tier).

Where the tests run as root, the grader is run here as ``nobody`` (``runuser``), with a Python that
``nobody`` can read: a fresh venv of the system's ``/usr/bin/python3`` holding the grader's three
needs at the versions the locks pin (numpy, nbformat, IPython) and a copy of ``dpteach``. As an
ordinary user bubblewrap builds the sandbox in a user namespace of its own (no fresh uid); a class of
one honest student, one classmate and attackers is graded exactly as ``make grade`` does. Where the
tests already run as an ordinary user, the whole suite is this test.
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers import INSTALL_HINTS, missing
from submissions import MANIFEST, RIGHT, submission
from test_attacks import MARKER, SECRET_ANSWER, SLEEP, _classmate, _detach, _ours, _steal

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("runuser") or not SYSTEM_PYTHON.exists()
    or missing("bubblewrap"), reason="needs root (to become nobody), runuser and /usr/bin/python3; " + INSTALL_HINTS["bubblewrap"])]


def _as_nobody(argv, **kwargs):
    return subprocess.run([shutil.which("runuser"), "-u", "nobody", "--", *argv], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def graded_as_nobody():
    import json
    top = Path(tempfile.mkdtemp(prefix="dpteach-as-a-user-", dir="/tmp"))
    try:
        top.chmod(0o755)
        venv = top / "venv"
        subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(venv)], check=True, capture_output=True)
        pins = top / "pins.txt"
        pins.write_text((ROOT / "requirements" / "test.lock.txt").read_text())
        done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               "-c", str(pins), "numpy", "nbformat", "ipython"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        source = top / "source"
        shutil.copytree(ROOT / "dpteach", source / "dpteach", ignore=shutil.ignore_patterns("__pycache__"))
        instructor, folder, home = top / "instructor", top / "submissions", top / "home"
        for made in (instructor, folder, home):
            made.mkdir()
        paths = {"answers": instructor / "answers.md", "course": instructor / "course.json",
                 "gradebook": top / "graded" / "gradebook.csv", "classmate": folder / "classmate.ipynb"}
        paths["answers"].write_text(f"exercise_1: {SECRET_ANSWER}\n")
        paths["course"].write_text(json.dumps(MANIFEST))
        submitted = [submission(folder, "detach", RIGHT, extra=[_detach(paths)]),
                     submission(folder, "classmate_attack", RIGHT, extra=[_classmate(paths)]),
                     submission(folder, "steal", RIGHT, extra=_steal(paths)),
                     submission(folder, "honest", RIGHT), submission(folder, "classmate", RIGHT)]
        (folder / "steal").mkdir()      # a blank notebook named after the classmate, in the attacker's own folder
        submitted.append(submission(folder / "steal", "classmate"))
        (folder / "steal").chmod(0o755)
        for path in submitted:
            path.chmod(0o644)
        classmate = paths["classmate"].read_bytes()
        subprocess.run(["chown", "-R", "nobody:nogroup", str(instructor), str(home)], check=True)
        instructor.chmod(0o700)
        env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "PYTHONPATH": str(source)}
        started = time.monotonic()
        graded = _as_nobody([str(venv / "bin" / "python"), "-m", "dpteach", "grade", "--course",
                             str(paths["course"]), str(folder), "--out", str(instructor / "graded"), "--jobs", "2"],
                            cwd=source, env=env, timeout=600)
        seconds = time.monotonic() - started
        left = _ours(MARKER) + _ours(f"sleep {SLEEP}")
        gradebook = instructor / "graded" / "gradebook.csv"
        written = gradebook.read_text() if gradebook.exists() else ""
        time.sleep(6)
        later = gradebook.read_text() if gradebook.exists() else ""
        feedback = [p.read_text() for p in sorted((instructor / "graded" / "feedback").glob("*"))]
        rows = {row["id"]: row for row in csv.DictReader(written.splitlines())}
        yield {"run": graded, "seconds": seconds, "rows": rows, "written": written, "later": later, "left": left,
               "feedback": feedback, "classmate_same": paths["classmate"].read_bytes() == classmate,
               "stray": (top / "graded").exists()}
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_an_ordinary_user_grades_the_class_in_bubblewrap(graded_as_nobody):
    run = graded_as_nobody["run"]
    assert run.returncode == 0, run.stderr[-3000:]
    rows = graded_as_nobody["rows"]
    assert sorted(rows) == ["classmate", "classmate_attack", "detach", "honest", "steal"]
    assert {row["isolation"] for row in rows.values()} == {"bubblewrap"}
    for name in ("honest", "classmate", "detach", "classmate_attack"):
        assert (rows[name]["total"], rows[name]["status"]) == ("4", "ok"), rows[name]
    assert "each in a bubblewrap sandbox" in run.stdout


def test_as_an_ordinary_user_the_attacks_fail_too(graded_as_nobody):
    assert graded_as_nobody["later"] == graded_as_nobody["written"]
    assert not graded_as_nobody["stray"]          # the late writer's gradebook folder was never made
    assert graded_as_nobody["classmate_same"]
    assert graded_as_nobody["left"] == []
    for text in graded_as_nobody["feedback"] + [graded_as_nobody["written"]]:
        assert SECRET_ANSWER not in text
