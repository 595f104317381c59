"""The course on Gradescope: the autograder zip that `make course` writes, run as Gradescope runs it.

Each submission gets a tree laid out as Gradescope lays it (``source/`` from the zip, ``submission/``,
``results/``, ``submission_metadata.json``), and ``run_autograder`` runs as root with that tree at
``/autograder``: under bubblewrap, on a root built on an empty tmpfs (``/autograder`` is never made on
the host), with every capability, as Gradescope's container gives root. ``results.json`` is validated
against a schema written from Gradescope's specification, and each fixture's expected score is written
here. The attacks run again with the grader's no-bubblewrap mode forced (a fresh unprivileged uid).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from helpers import INSTALL_HINTS, ROOT, missing
from submissions import RIGHT_FUNCTION, fill_cells, roster_answers

from dpteach.course import assign, sandbox
from dpteach.course.roster import Student
from dpteach.exercises import EXERCISES
from dpteach.publish.paths import Project

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or missing("bubblewrap"),
                                reason="runs Gradescope's run_autograder as root (as Gradescope does); " + INSTALL_HINTS["bubblewrap"])

CHAPTER = "05_accuracy_census_names"
MARKER = "dpteach-gradescope-attack"
CALLS_DPTEACH = ("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
                 "    return dp.laplace_accuracy_bound(k, beta, sensitivity, epsilon)\n")

#: Gradescope's results.json, from its autograder specification (docs/specs.md of gradescope/autograder_samples).
SCHEMA = {
    "type": "object", "required": ["tests"], "additionalProperties": False,
    "properties": {
        "score": {"type": "number"}, "execution_time": {"type": "number"}, "output": {"type": "string"},
        "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
        "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "stdout_visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object", "required": ["score", "max_score", "name", "status"], "additionalProperties": False,
            "properties": {
                "score": {"type": "number"}, "max_score": {"type": "number"}, "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string"}, "number": {"type": "string"}, "output": {"type": "string"},
                "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]}}}}}}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    top = tmp_path_factory.mktemp("gradescope")
    roster = [Student("ada", "Ada Lovelace", "ada@uni.edu"), Student("bob", "Bob Babbage", "bob@uni.edu"),
              Student("cy", "Cy Young", "cy@uni.edu")]
    out = assign.build_course(Project(ROOT), top / "course", seed="gradescope-test", chapters=["03", "05"], roster=roster,
                              wheel=False)
    manifest = json.loads((out / "instructor" / "course.json").read_text())
    return {"top": top, "out": out, "manifest": manifest,
            "zip": out / "instructor" / "gradescope" / f"{CHAPTER}.zip"}


def _notebook(course, sid, answers, extra=(), chapter=CHAPTER):
    nb = fill_cells(nbformat.read(course["out"] / "students" / "by-student" / sid / f"{chapter}.ipynb", as_version=4),
                    answers)
    nb.cells += [nbformat.v4.new_code_cell(source) for source in extra]
    return nb


def _tree(course, tmp: Path, name: str, notebooks: dict, emails: list[str]) -> Path:
    """Gradescope's /autograder for one submission, from the zip (its limits shortened for the test)."""
    tree = tmp / name
    for folder in ("source", "submission", "results"):
        (tree / folder).mkdir(parents=True)
    with zipfile.ZipFile(course["zip"]) as archive:
        archive.extractall(tree / "source")
    config = json.loads((tree / "source" / "course.json").read_text())
    config["gradescope"].update(timeout=30, cell_timeout=5, function_timeout=5)
    (tree / "source" / "course.json").write_text(json.dumps(config))
    shutil.copy(tree / "source" / "run_autograder", tree / "run_autograder")
    (tree / "run_autograder").chmod(0o755)
    for file_name, nb in notebooks.items():
        if isinstance(nb, str):
            (tree / "submission" / file_name).write_text(nb)
        else:
            nbformat.write(nb, tree / "submission" / file_name)
    (tree / "submission_metadata.json").write_text(json.dumps({
        "id": 123456, "created_at": "2026-12-06T10:00:00Z", "submission_method": "upload",
        "assignment": {"title": "Homework 05", "due_date": "2026-12-07T23:59:00Z", "total_points": "5.0"},
        "users": [{"email": email, "id": 1000 + i, "name": email.split("@")[0]} for i, email in enumerate(emails)],
        "previous_submissions": []}))
    return tree


def run_autograder(tree: Path, isolation: str = "", path: Path | None = None) -> tuple[dict, subprocess.CompletedProcess]:
    """``run_autograder`` as root with ``tree`` at /autograder, in bubblewrap on an empty root (the host is untouched).

    For the submission that leaves a process, the container lives on 3 s after ``run_autograder`` returns,
    with ``tree/shared`` (open to every uid) at /shared: a process left behind would write there. ``path``: a
    folder of executables (a venv's bin) put first on PATH, and mounted."""
    linger = 3 if tree.name == "leaves_process" else 0
    shared = tree / "shared"
    shared.mkdir(exist_ok=True)
    shared.chmod(0o1777)
    argv = [shutil.which("bwrap"), "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--die-with-parent",
            "--cap-add", "ALL", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for name in ("bin", "sbin", "lib", "lib64"):
        host = Path("/") / name
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), str(host)]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    made = set()
    for folder in sandbox._python_folders():
        for parent in reversed(folder.parents):
            if parent != Path("/") and parent not in made:
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        argv += ["--ro-bind", str(folder), str(folder)]
    venv = Path(os.sys.executable).parent
    if path is not None:
        argv += ["--ro-bind", str(path.parent), str(path.parent)]
        venv = f"{path}:{venv}"
    argv += ["--bind", str(tree), "/autograder", "--bind", str(shared), "/shared", "--chdir", "/autograder",
             "--clearenv", "--setenv", "PATH",
             f"{venv}:/usr/bin:/bin", "--setenv", "HOME", "/root"]
    if isolation:
        argv += ["--setenv", "DPTEACH_ISOLATION", isolation]
    done = subprocess.run(argv + ["--", "/bin/sh", "-c", f"/autograder/run_autograder; status=$?; sleep {linger}; exit $status"],
                          capture_output=True, text=True, timeout=120)
    result_file = tree / "results" / "results.json"
    return (json.loads(result_file.read_text()) if result_file.exists() else {}), done


def _valid(result: dict) -> None:
    import jsonschema
    jsonschema.validate(result, SCHEMA)
    assert len(json.dumps(result)) <= 1_000_000


def _attacks(tree_root: str) -> dict[str, str]:
    """Cells a hostile student adds (the paths are Gradescope's, known to everyone)."""
    return {
        "writes_results": "open('/autograder/results/results.json', 'w').write('{\"score\": 100, \"tests\": []}')",
        "reads_source": "answer_beta_for_bound = open('/autograder/source/course.json').read()",
        # a process that outlives the grading and then writes where it can (the harness's /shared, open to all)
        "leaves_process": ("import subprocess\nsubprocess.Popen(['setsid', 'sh', '-c', 'sleep 2; echo alive > "
                           f"/shared/{MARKER}'], start_new_session=True)"),
    }


@pytest.fixture(scope="module")
def graded(course, tmp_path_factory):
    """Every fixture run once with the isolation Gradescope's container allows here (bubblewrap)."""
    manifest, tmp = course["manifest"], tmp_path_factory.mktemp("trees")
    right = roster_answers(manifest, "ada")
    attacks = _attacks("/autograder")
    fixtures = {
        "right": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right)}, ["ada@uni.edu"]),
        "wrong": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", roster_answers(manifest, "ada", "wrong"))}, ["ada@uni.edu"]),
        "partial": ({"hw5.ipynb": _notebook(course, "ada", {**right, "my_accuracy_bound": CALLS_DPTEACH,
                                                            "answer_dominance_threshold": "answer_dominance_threshold = 1.0"})},
                    ["ada@uni.edu"]),
        "empty": ({}, ["ada@uni.edu"]),
        "another_students": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right)}, ["bob@uni.edu"]),
        "group": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right)}, ["ada@uni.edu", "bob@uni.edu"]),
        "other_assignment": ({"03_laplace_mechanism.ipynb": _notebook(course, "ada", {}, chapter="03_laplace_mechanism")},
                             ["ada@uni.edu"]),
        "raises": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right, ["raise RuntimeError('boom')"])}, ["ada@uni.edu"]),
        "hangs": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right, ["while True:\n    pass"])}, ["ada@uni.edu"]),
        "prints_10MB": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right, ["print('x' * 10_000_000)"])}, ["ada@uni.edu"]),
        "not_on_roster": ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right)}, ["mallory@elsewhere.org"]),
        "unreadable": ({f"{CHAPTER}.ipynb": '{"cells": [{"cell_type": "code", "sour'}, ["ada@uni.edu"]),
        **{name: ({f"{CHAPTER}.ipynb": _notebook(course, "ada", right, [cell])}, ["ada@uni.edu"])
           for name, cell in attacks.items()},
    }
    trees = {name: _tree(course, tmp, name, notebooks, emails) for name, (notebooks, emails) in fixtures.items()}
    started = time.monotonic()
    with ThreadPoolExecutor(2) as pool:
        done = dict(zip(trees, pool.map(run_autograder, trees.values())))
    seconds = time.monotonic() - started
    return {"results": {name: result for name, (result, _) in done.items()}, "trees": trees,
            "runs": {name: run for name, (_, run) in done.items()}, "seconds": seconds, "manifest": manifest}


def _score(manifest, sid_numbers, answers_of):
    """Points for ada's right values judged at ``sid_numbers``' numbers (+2: the function is right anywhere)."""
    total = 0
    for exercise in manifest["chapters"][CHAPTER]["exercises"]:
        if exercise["kind"] != "function":
            spec = EXERCISES[exercise["checker"]]
            theirs = manifest["students"][answers_of]["params"][CHAPTER][exercise["name"]]
            mine = manifest["students"][sid_numbers]["params"][CHAPTER][exercise["name"]]
            total += int(bool(spec.checker(spec.expected(**theirs), **mine).correct))
    return total + 2


def test_every_submission_gets_a_valid_results_json_with_its_expected_score(graded):
    manifest, results = graded["manifest"], graded["results"]
    expected = {"right": 5, "wrong": 0, "partial": 3, "empty": 0, "another_students": _score(manifest, "bob", "ada"),
                "group": 5, "other_assignment": 0, "raises": 5, "hangs": 5, "prints_10MB": 5, "not_on_roster": 0,
                "writes_results": 5, "reads_source": 5, "leaves_process": 5, "unreadable": 0}
    for name, result in results.items():
        assert graded["runs"][name].returncode == 0, (name, graded["runs"][name].stderr[-2000:])
        _valid(result)
        assert result["score"] == sum(t["score"] for t in result["tests"]) == expected[name], (name, result)
        assert "bubblewrap" in graded["runs"][name].stdout          # the instructor-only output says where it ran
        assert result["stdout_visibility"] == "hidden"


def test_one_test_per_exercise_part_with_the_courses_points_and_no_answer(graded):
    manifest, result = graded["manifest"], graded["results"]["wrong"]
    names = [t["name"] for t in result["tests"]]
    assert names == ["Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4: passing its hidden cases",
                     "Exercise 4: writing it by hand (numpy and math only) once they pass"]
    assert [t["max_score"] for t in result["tests"]] == [1, 1, 1, 1, 1]
    assert all(t["visibility"] == "visible" and t["status"] == "failed" for t in result["tests"])
    for exercise, test in zip(manifest["chapters"][CHAPTER]["exercises"], result["tests"]):
        if exercise["kind"] == "value":
            spec = EXERCISES[exercise["checker"]]
            params = manifest["students"]["ada"]["params"][CHAPTER][exercise["name"]]
            assert spec.mistakes(**params)[0].message[:40] in test["output"]          # the named mistake
            assert f"{spec.expected(**params):.4g}" not in test["output"]             # never the answer
    partial = graded["results"]["partial"]["tests"]
    assert [t["score"] for t in partial] == [1, 1, 0, 1, 0] and "laplace_accuracy_bound" in partial[4]["output"]


def test_why_a_submission_scored_nothing_is_said(graded):
    results = graded["results"]
    assert "no notebook (.ipynb) was submitted" in results["empty"]["output"]
    assert "is this assignment's (05_accuracy_census_names)" in results["other_assignment"]["output"]
    assert "mallory@elsewhere.org is on no row of the course's roster" in results["not_on_roster"]["output"]
    assert "made for another student (ada)" in results["another_students"]["output"]
    assert "a group submission, graded at its first member's numbers (ada@uni.edu)" in results["group"]["output"] or \
        _score(graded["manifest"], "bob", "bob") == 5
    assert "RuntimeError: boom" in results["raises"]["output"]
    assert "ran longer than the time limit" in results["hangs"]["output"]
    assert "not a readable notebook" in results["unreadable"]["output"]


def test_the_attacks_fail_under_bubblewrap(graded):
    _attacks_failed(graded["results"], graded["manifest"], graded["trees"])


def _attacks_failed(results, manifest, trees):
    assert results["writes_results"]["score"] == 5 and results["writes_results"]["tests"]       # its own 100 is gone
    bob = manifest["students"]["bob"]
    text = json.dumps(results["reads_source"])
    assert bob["email"] not in text and bob["tag"] not in text                       # nothing of the course file
    assert not (trees["leaves_process"] / "shared" / MARKER).exists(), "a process the submission started lived on"
    left = subprocess.run(["pgrep", "-f", MARKER], capture_output=True, text=True).stdout.split()
    assert left == [], "a process the submission started is still running"


@pytest.fixture(scope="module")
def graded_as_a_user(course, tmp_path_factory):
    """The attacks and one honest submission, with the no-bubblewrap mode forced: a fresh unprivileged uid."""
    tmp = tmp_path_factory.mktemp("trees-user")
    right = roster_answers(course["manifest"], "ada")
    fixtures = {"right": []} | {name: [cell] for name, cell in _attacks("/autograder").items()}
    trees = {name: _tree(course, tmp, name, {f"{CHAPTER}.ipynb": _notebook(course, "ada", right, extra)},
                         ["ada@uni.edu"]) for name, extra in fixtures.items()}
    with ThreadPoolExecutor(2) as pool:
        done = dict(zip(trees, pool.map(lambda tree: run_autograder(tree, "user"), trees.values())))
    return ({name: result for name, (result, _) in done.items()}, {name: run for name, (_, run) in done.items()},
            trees)


def test_the_attacks_fail_as_an_unprivileged_uid_too(course, graded_as_a_user):
    results, runs, trees = graded_as_a_user
    for name, result in results.items():
        _valid(result)
        assert "isolation: user" in runs[name].stdout, runs[name].stdout
    assert results["right"]["score"] == 5
    assert results["reads_source"]["score"] == 5 and "Errno 13" in results["reads_source"]["output"]
    _attacks_failed(results, course["manifest"], trees)


def test_the_zip_holds_what_gradescope_runs_and_never_the_courses_key(course):
    with zipfile.ZipFile(course["zip"]) as archive:
        names = set(archive.namelist())
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        config = json.loads(archive.read("course.json"))
        setup = archive.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder", "course.json", "requirements.txt"} <= names
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert "key" not in config and list(config["chapters"]) == [CHAPTER]
    assert set(config["students"]) == {"ada", "bob", "cy"} and set(config["students"]["ada"]["params"]) == {CHAPTER}
    assert config["gradescope"]["memory_mb"] <= 512 and config["gradescope"]["timeout"] <= 60
    for needed in ("bubblewrap", "python3-venv", "/opt/dpteach", "requirements.txt", "chmod -R go-rwx /autograder/source"):
        assert needed in setup
    assert "gradescope-test" not in json.dumps(config)


def test_public_variants_grade_each_submitter_at_the_numbers_their_email_draws(course, tmp_path):
    """A shared notebook (Gradescope cannot hand each student a file): the student writes their email in its
    first cell; the autograder draws the submitter's numbers from the email Gradescope gives, and flags a
    notebook whose email is another's."""
    from dpteach.exercises.variants import variant
    out = assign.build_course(Project(ROOT), tmp_path / "public", seed="public-test", chapters=["05"], public=True,
                              wheel=False)
    manifest = json.loads((out / "instructor" / "course.json").read_text())
    salt = manifest["public"]["salt"]
    shared = nbformat.read(out / "students" / "notebooks" / f"{CHAPTER}.ipynb", as_version=4)

    def filled(email):
        nb = nbformat.from_dict(json.loads(json.dumps(shared)))
        for cell in nb.cells:
            if cell.cell_type == "code" and 'email=""' in cell.source:
                cell.source = cell.source.replace('email=""', f'email="{email}"')
            for exercise in manifest["chapters"][CHAPTER]["exercises"]:
                if cell.cell_type == "code" and f"{exercise['answer']} = ..." in cell.source:
                    if exercise["kind"] == "function":
                        answer = RIGHT_FUNCTION
                    else:
                        spec = EXERCISES[exercise["checker"]]
                        value = spec.expected(**variant(salt, email, CHAPTER, exercise["checker"],
                                                        exercise.get("avoid", ())))
                        answer = f"{exercise['answer']} = {value!r}"
                    cell.source = answer + "\n" + cell.source.rstrip().splitlines()[-1]
        return nb

    zipped = {"zip": out / "instructor" / "gradescope" / f"{CHAPTER}.zip"}
    own = _tree(zipped, tmp_path, "own", {"hw.ipynb": filled("dee@uni.edu")}, ["Dee@Uni.edu"])
    copied = _tree(zipped, tmp_path, "copied", {"hw.ipynb": filled("dee@uni.edu")}, ["eve@uni.edu"])
    (mine, _), (theirs, _) = run_autograder(own), run_autograder(copied)
    _valid(mine)
    _valid(theirs)
    assert mine["score"] == 5 and mine["output"] == ""
    assert "its numbers were drawn for another email (dee@uni.edu)" in theirs["output"]
    expected = 2 + sum(int(bool(EXERCISES[e["checker"]].checker(
        EXERCISES[e["checker"]].expected(**variant(salt, "dee@uni.edu", CHAPTER, e["checker"], e.get("avoid", ()))),
        **variant(salt, "eve@uni.edu", CHAPTER, e["checker"], e.get("avoid", ()))).correct))
        for e in manifest["chapters"][CHAPTER]["exercises"] if e["kind"] != "function")
    assert theirs["score"] == expected
