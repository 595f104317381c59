"""The Gradescope autograder as Gradescope builds it (slow tier): setup.sh's install steps from the zip's own
files, then twenty submissions graded by run_autograder and by `make grade`, part by part the same.

setup.sh itself apt-installs and writes /opt, which a test must not do to its machine: its pip steps run
here into a fresh venv of the system's /usr/bin/python3 (readable by the unprivileged uid the no-bubblewrap
mode becomes), from the zip's requirements.txt (the grading lock) and its dpteach wheel, exactly as the
script runs them. The venv then stands first on PATH, where run_autograder finds it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import INSTALL_HINTS, ROOT, missing
from submissions import roster_answers as _answers
from test_gradescope import CHAPTER, _notebook, _tree, _valid, run_autograder

from dpteach.course import assign, grading
from dpteach.course.roster import Student
from dpteach.publish.paths import Project

SYSTEM_PYTHON = Path("/usr/bin/python3")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    os.geteuid() != 0 or missing("bubblewrap") or not SYSTEM_PYTHON.exists(),
    reason="needs root (Gradescope runs its autograder as root) and /usr/bin/python3; " + INSTALL_HINTS["bubblewrap"])]


def _setup_steps(zip_path: Path, venv: Path) -> list[list[str]]:
    """setup.sh's pip commands, read from the script in the zip, aimed at ``venv`` instead of /opt/dpteach."""
    with zipfile.ZipFile(zip_path) as archive:
        script = archive.read("setup.sh").decode()
    steps = [line.split() for line in script.splitlines() if line.startswith("/opt/dpteach/bin/python -m pip install")]
    assert len(steps) == 2, script
    return steps


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    top = Path(tempfile.mkdtemp(prefix="dpteach-gradescope-", dir="/tmp"))
    top.chmod(0o755)
    roster = [Student(f"s{i:02d}", f"Student {i}", f"s{i:02d}@uni.edu") for i in range(20)]
    out = assign.build_course(Project(ROOT), top / "course", seed="gradescope-install", chapters=["05"], roster=roster)
    zip_path = out / "instructor" / "gradescope" / f"{CHAPTER}.zip"
    source = top / "unpacked"
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(source)
    venv = top / "opt-dpteach"
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(venv)], check=True, capture_output=True)
    for step in _setup_steps(zip_path, venv):
        argv = [str(venv / "bin" / "python"), *step[1:]]
        argv = [arg.replace("/autograder/source", str(source)) for arg in argv]
        if argv[-1].endswith("*.whl"):
            argv = argv[:-1] + [str(p) for p in sorted((source / "wheels").glob("*.whl"))]
        done = subprocess.run(argv, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
    subprocess.run(["chmod", "-R", "a+rX", str(venv)], check=True)
    yield {"top": top, "out": out, "venv": venv, "zip": zip_path,
           "manifest": json.loads((out / "instructor" / "course.json").read_text())}
    shutil.rmtree(top, ignore_errors=True)


def test_the_zips_own_files_install_a_dpteach_that_grades(installed):
    venv = installed["venv"]
    done = subprocess.run([str(venv / "bin" / "python"), "-c", "import dpteach, nbformat, IPython; "
                           "print(dpteach.__file__)"], capture_output=True, text=True, check=True, cwd=installed["top"])
    assert done.stdout.startswith(str(venv))                   # the wheel's dpteach, not the checkout's


def test_run_autograder_and_make_grade_give_the_same_points_part_by_part(installed, tmp_path):
    course = {"out": installed["out"], "zip": installed["zip"]}
    manifest = installed["manifest"]
    collected = tmp_path / "collected"
    collected.mkdir()
    notebooks = {}
    for i, sid in enumerate(sorted(manifest["students"])):
        how = "right" if i % 3 == 0 else "wrong" if i % 3 == 1 else "partial"
        answers = _answers(manifest, sid, "wrong" if how == "wrong" else "right")
        if how == "partial":
            first = next(iter(answers))
            answers[first] = f"{first} = 1.0"
        notebooks[sid] = _notebook(course, sid, answers)
        import nbformat
        nbformat.write(notebooks[sid], collected / f"{sid}.ipynb")
    loaded = grading.load_manifest(installed["out"] / "instructor" / "course.json")
    records = grading.grade_all(grading.identify_all(sorted(collected.glob("*.ipynb")), loaded), loaded,
                                grading.Options(timeout=60, function_timeout=20), jobs=2)
    by_make = {r.id: [p["earned"] for q in r.questions for p in q["parts"]] for r in records}
    trees = {sid: _tree(course, tmp_path, sid, {f"{CHAPTER}.ipynb": nb}, [manifest["students"][sid]["email"]])
             for sid, nb in notebooks.items()}
    with ThreadPoolExecutor(2) as pool:
        ran = dict(zip(trees, pool.map(lambda tree: run_autograder(tree, path=installed["venv"] / "bin"), trees.values())))
    for sid, (result, run) in ran.items():
        assert run.returncode == 0, run.stderr[-2000:]
        _valid(result)
        assert f"dpteach autograder ({installed['venv']}/bin/python" in run.stdout, run.stdout
        assert [t["score"] for t in result["tests"]] == by_make[sid], sid
    assert {sum(parts) for parts in by_make.values()} >= {0, 5}          # right and wrong ones among them
