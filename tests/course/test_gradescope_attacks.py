"""Issue 54's newer attacks through Gradescope's layout: function cheats, parse bombs and a /dev/shm fill.

tests/course/test_function_cheats.py, test_parse_bombs.py and test_fair_limits.py try them through ``make grade``'s
grading core; here each is a submission in a tree laid out as Gradescope lays it, ``run_autograder`` run as root
with that tree at /autograder (:func:`test_gradescope.run_autograder`: bubblewrap on an empty root, every capability,
as Gradescope's container gives root), with the isolation the container allows here (bubblewrap) and, where the
attack's defence differs, with the no-bubblewrap mode forced (a fresh unprivileged uid, as in a container whose
seccomp profile refuses bubblewrap). Every run must write a valid ``results.json``:

- chapter 03's cheats (an exact first release, a clamped tail, numpy's generator replaced, dpteach's mechanism or
  ``eval`` out of a pickle: one per defence, the replay, the statistical checks, the cell reading, the audit hook)
  get 0 on the function's points with their reason, and the honest mechanism both points; a table of chapter 05's
  fixed cases gets 0 (its cases drawn afresh), the right bound both;
- an 8 MB cell (an AST bomb) and a function returning 400,000 lists are refused unparsed: the grader runs under a
  2 GB address-space limit it cannot pass (so that a lost cap fails here, not on this shared machine) and its peak
  resident memory, read from /proc at its exit, stays under 600 MB;
- a notebook writing 512 MB into /dev/shm is stopped at 64 MB (bubblewrap: its own sized tmpfs; a fresh uid: the
  grader watches the container's /dev/shm, stops the run and empties it), and its right answers keep their points.
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import INSTALL_HINTS, ROOT, missing, needs_sandbox
from submissions import roster_answers
from test_function_cheats import CHEATS, HONEST, TABLE, names_its_reason
from test_gradescope import CHAPTER, _notebook, _tree, _valid, run_autograder

from dpteach.course import assign, gradescope, reading, sandbox
from dpteach.course.roster import Student
from dpteach.publish.paths import Project

pytestmark = [pytest.mark.slow, pytest.mark.once,
              pytest.mark.skipif(os.geteuid() != 0 or missing("bubblewrap"),
                                 reason="runs Gradescope's run_autograder as root (as Gradescope does); " + INSTALL_HINTS["bubblewrap"])]

CH03 = "03_laplace_mechanism"
#: Chapter 03's cheats tried here (each beats a different defence: the replay, the cell reading, the audit hook).
CHEATS_03 = ["first_release_exact", "clamped_at_16b", "replaced_default_rng", "np_load_mechanism", "read_array_eval"]
#: The grader's address space in the bomb runs, and the peak resident memory it must stay under (MB).
GRADER_AS_MB, PEAK_MB = 2048, 600
SHM_HOG = ("import time\nwritten = 0\nfor i in range(16):\n"
           "    with open(f'/dev/shm/dpteach-gradescope-hog-{i}', 'wb') as f:\n"
           "        f.write(b'x' * 2**25)\n    written += 32\n    time.sleep(0.05)\n")

#: ``python3`` first on run_autograder's PATH (which runs ``python3 -m dpteach.course gradescope`` where setup.sh's
#: venv is missing): the grader imports the dpteach under test (this checkout's, mounted read-only as the sandbox
#: mounts it), under an address-space limit, and writes its peak resident memory (VmHWM) and what /dev/shm still
#: holds into the tree when it exits. /dev/shm is opened to every uid first, as in a Docker container.
MEASURED_PYTHON = """#!{python}
import atexit, os, resource, runpy, sys
sys.path.insert(0, {package!r})
os.chmod("/dev/shm", 0o1777)     # as a container's is (Docker's tmpfs); bubblewrap's --dev made it root's alone
limit = {limit_mb} * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

def measure():
    with open("/proc/self/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    held = sum(os.lstat(os.path.join(top, name)).st_size for top, _, names in os.walk("/dev/shm") for name in names)
    with open("/autograder/measured.json", "w") as out:
        out.write('{{"peak_mb": %.1f, "shm_bytes": %d}}' % (peak_kb / 1024, held))

atexit.register(measure)
assert sys.argv[1] == "-m", sys.argv
sys.argv = sys.argv[2:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """Chapters 03 and 05 handed out to a roster of two, with their Gradescope zips (as test_gradescope's)."""
    top = tmp_path_factory.mktemp("gradescope-attacks")
    roster = [Student("ada", "Ada Lovelace", "ada@uni.edu"), Student("bob", "Bob Babbage", "bob@uni.edu")]
    out = assign.build_course(Project(ROOT), top / "course", seed="gradescope-attacks", chapters=["03", "05"],
                              roster=roster, wheel=False)
    return {"out": out, "manifest": json.loads((out / "instructor" / "course.json").read_text()),
            "zip": out / "instructor" / "gradescope" / f"{CHAPTER}.zip"}


def _with_function(notebook, answer: str, source: str):
    """``notebook`` with its function cell (the stub ``def answer(...)``) replaced by ``source``, keeping the check."""
    cell, = [c for c in notebook.cells if c.cell_type == "code" and f"def {answer}(" in c.source]
    cell.source = source.rstrip("\n") + "\n\n" + cell.source.rstrip().splitlines()[-1]
    return notebook


def _function_tree(course, tmp, name, chapter, answer, source, answers=None):
    notebook = _with_function(_notebook(course, "ada", answers or {}, chapter=chapter), answer, source)
    tree = _tree({"zip": course["out"] / "instructor" / "gradescope" / f"{chapter}.zip"}, tmp, name,
                 {f"{chapter}.ipynb": notebook}, ["ada@uni.edu"])
    config = json.loads((tree / "source" / "course.json").read_text())
    # Gradescope's own time limits (test_gradescope's trees shorten them): chapter 03's check in the notebook calls
    # a slow cheat thousands of times, and its long run takes seconds on a loaded machine
    config["gradescope"].update(gradescope.LIMITS, memory_mb=config["gradescope"]["memory_mb"])
    (tree / "source" / "course.json").write_text(json.dumps(config))
    return tree


def _function_tests(result: dict) -> list[dict]:
    return [test for test in result["tests"] if test["name"].startswith("Exercise 4")]


@pytest.fixture(scope="module")
def measured_python(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("measured-python") / "bin"
    folder.mkdir()
    wrapper = folder / "python3"
    wrapper.write_text(MEASURED_PYTHON.format(python=sys.executable, package=str(sandbox.PACKAGE.parent),
                                              limit_mb=GRADER_AS_MB))
    wrapper.chmod(0o755)
    folder.parent.chmod(0o755)
    return folder


@pytest.fixture(scope="module")
def cheats(course, measured_python, tmp_path_factory):
    """Chapter 03's honest mechanism and cheats, chapter 05's right bound and a table of its fixed cases; the
    no-bubblewrap mode for the honest ones and one cheat per defence."""
    needs_sandbox()
    tmp = tmp_path_factory.mktemp("cheats")
    right_05 = roster_answers(course["manifest"], "ada")
    sources = {"honest": HONEST, **{name: CHEATS[name][0] for name in CHEATS_03}}
    trees = {(name, ""): _function_tree(course, tmp, name, CH03, "my_laplace_mechanism", source)
             for name, source in sources.items()}
    for name, source in {"right_05": right_05["my_accuracy_bound"], "table_05": TABLE}.items():
        trees[name, ""] = _function_tree(course, tmp, name, CHAPTER, "my_accuracy_bound", source,
                                         {k: v for k, v in right_05.items() if k != "my_accuracy_bound"})
    for name in ("honest", "read_array_eval", "right_05", "table_05"):
        chapter, answer = (CHAPTER, "my_accuracy_bound") if name.endswith("_05") else (CH03, "my_laplace_mechanism")
        source = {"right_05": right_05["my_accuracy_bound"], "table_05": TABLE}.get(name) or sources[name]
        trees[name, "user"] = _function_tree(course, tmp, f"{name}-user", chapter, answer, source,
                                             {k: v for k, v in right_05.items() if k != "my_accuracy_bound"}
                                             if chapter == CHAPTER else None)
    with ThreadPoolExecutor(2) as pool:
        done = {key: pool.submit(run_autograder, tree, key[1], measured_python) for key, tree in trees.items()}
        return {key: future.result() for key, future in done.items()}


@pytest.mark.parametrize("isolation", ["", "user"])
def test_the_honest_mechanism_and_the_right_bound_keep_both_points(cheats, isolation):
    for name, others in (("honest", 0), ("right_05", 3)):
        result, run = cheats[name, isolation]
        assert run.returncode == 0, run.stderr[-2000:]
        _valid(result)
        assert [t["score"] for t in _function_tests(result)] == [1, 1], result
        assert result["score"] == 2 + others, result
        assert f"isolation: {isolation or 'bubblewrap'}" in run.stdout or (not isolation and "bubblewrap" in run.stdout)


@pytest.mark.parametrize("name", CHEATS_03)
def test_chapter_03s_cheats_get_no_point_on_gradescope(cheats, name):
    result, run = cheats[name, ""]
    assert run.returncode == 0, run.stderr[-2000:]
    _valid(result)
    first, second = _function_tests(result)
    assert (first["score"], second["score"]) == (0, 0), result
    assert names_its_reason(name, first["output"]), first["output"]
    assert result["score"] == 0


@pytest.mark.parametrize("name", ["read_array_eval"])
def test_chapter_03s_cheats_get_no_point_as_an_unprivileged_uid_too(cheats, name):
    result, run = cheats[name, "user"]
    _valid(result)
    assert "isolation: user" in run.stdout, run.stdout
    first, second = _function_tests(result)
    assert (first["score"], second["score"]) == (0, 0) and names_its_reason(name, first["output"]), result


@pytest.mark.parametrize("isolation", ["", "user"])
def test_a_table_of_chapter_05s_fixed_cases_gets_no_point_on_gradescope(cheats, isolation):
    result, run = cheats["table_05", isolation]
    _valid(result)
    first, second = _function_tests(result)
    assert (first["score"], second["score"]) == (0, 0), result
    assert "a case drawn for this grading" in first["output"], first["output"]
    assert result["score"] == 3       # its three right values still count


# -- parse bombs and /dev/shm ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bombs(course, measured_python, tmp_path_factory):
    needs_sandbox()
    tmp = tmp_path_factory.mktemp("bombs")
    right = roster_answers(course["manifest"], "ada")
    forged = "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return [[]] * 400_000\n"
    submissions = {
        "ast_bomb": (_notebook(course, "ada", right, ["x = " + "1+" * 4_000_000 + "1"]), ""),
        "forged_outcome": (_with_function(_notebook(course, "ada", {k: v for k, v in right.items()
                                                                    if k != "my_accuracy_bound"}),
                                          "my_accuracy_bound", forged), ""),
        "shm_fill": (_notebook(course, "ada", right, [SHM_HOG]), ""),
        "shm_fill-user": (_notebook(course, "ada", right, [SHM_HOG]), "user"),
    }
    trees = {name: _tree(course, tmp, name, {f"{CHAPTER}.ipynb": notebook}, ["ada@uni.edu"])
             for name, (notebook, _) in submissions.items()}
    started = time.monotonic()
    with ThreadPoolExecutor(2) as pool:
        done = {name: pool.submit(run_autograder, trees[name], isolation, measured_python)
                for name, (_, isolation) in submissions.items()}
        results = {name: future.result() for name, future in done.items()}
    measured = {name: json.loads((trees[name] / "measured.json").read_text()) for name in trees}
    return results, measured, time.monotonic() - started


def test_an_ast_bomb_is_refused_unparsed_within_bounded_memory_on_gradescope(bombs):
    results, measured, _ = bombs
    result, run = results["ast_bomb"]
    assert run.returncode == 0, run.stderr[-2000:]
    _valid(result)
    assert result["score"] == 0, result
    assert f"more than the limit of {reading.MAX_CELL_CHARS:,}" in result["output"], result["output"]
    assert measured["ast_bomb"]["peak_mb"] < PEAK_MB, measured


def test_a_forged_outcome_is_never_parsed_on_gradescope(bombs):
    results, measured, _ = bombs
    result, run = results["forged_outcome"]
    assert run.returncode == 0, run.stderr[-2000:]
    _valid(result)
    first, second = _function_tests(result)
    assert (first["score"], second["score"]) == (0, 0) and "cannot read" in first["output"], result
    assert result["score"] == 3, result          # the other answers still count
    assert measured["forged_outcome"]["peak_mb"] < PEAK_MB, measured


@pytest.mark.parametrize("name, says", [("shm_fill", "No space left on device"),
                                        ("shm_fill-user", "wrote more into /dev/shm than its limit")])
def test_a_dev_shm_fill_is_stopped_at_its_limit_and_the_answers_count(bombs, name, says):
    results, measured, _ = bombs
    result, run = results[name]
    assert run.returncode == 0, run.stderr[-2000:]
    _valid(result)
    assert result["score"] == 5, result
    assert says in result["output"], result["output"]
    assert measured[name]["shm_bytes"] == 0, measured      # nothing left in the container's /dev/shm
    assert measured[name]["peak_mb"] < PEAK_MB, measured
