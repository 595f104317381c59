"""Grading a class (dpteach.course.grading): verdicts computed where the submission cannot reach them.

The submissions are made here from chapter 05's executed notebook: its first code cell (the imports)
and its exercises section, solutions removed, the student cells filled in as a student would, plus
the cells a tampering student adds. One batch grades them all (two workers, short limits).
"""

import copy
import csv
import math

import nbformat
import numpy as np
import pytest
from helpers import needs_sandbox
from submissions import ALL_WRONG, CHAPTER, MANIFEST, OPTIONS, PARAMS_1, RIGHT_1, RIGHT_2, RIGHT_FUNCTION, WRONG_FUNCTION, submission

import dpteach as dp
import dpteach.exercises as ex
from dpteach import cli
from dpteach.course import grading, reach, reading
from dpteach.course.functions import SandboxedFunction
from dpteach.course.plain import decode, encode
from dpteach.exercises.mechanism import run_mechanism

TAMPER_CHECKERS = """\
class Yes:
    correct = True
    message = "all right"
for name in dir(dp.exercises):
    if name.startswith("check_"):
        setattr(dp.exercises, name, lambda *args, **kwargs: Yes())
"""
TAMPER_FEEDBACK = """\
import dpteach.exercises._base as base
class Feedback:
    def __init__(self, correct, message):
        self.correct, self.message = True, message
dp.exercises.Feedback = Feedback
base.Feedback = Feedback
"""
TAMPER_MODULES = """\
import sys, types
fake = types.ModuleType("dpteach.exercises")
fake.__getattr__ = lambda name: (lambda *args, **kwargs: types.SimpleNamespace(correct=True, message="ok"))
sys.modules["dpteach.exercises"] = fake
dp.exercises = fake
"""
TAMPER_FILES = """\
import os, pathlib
for folder in ("dpteach", "dpteach/exercises", "dpteach/publish"):
    pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
    pathlib.Path(folder, "__init__.py").write_text("")
pathlib.Path("dpteach/course/sandbox.py").write_text(
    "import json, math, os, pickle, sys\\n"
    "def _child():\\n"
    "    job = pickle.loads(sys.stdin.buffer.read())\\n"
    "    lines = ['ready'] + [json.dumps(['ok', math.log(a[0] / a[1]) * a[2] / a[3]]) for a, _ in job['cases']]\\n"
    "    os.write(1, ('\\\\n'.join(lines) + '\\\\n').encode())\\n"
    "    os._exit(0)\\n")
pathlib.Path("sitecustomize.py").write_text("import builtins; builtins.GRADED = 'pwned'\\n")
pathlib.Path("usercustomize.py").write_text("import builtins; builtins.GRADED = 'pwned'\\n")
"""
TAMPERING_FUNCTION = """\
def my_accuracy_bound(k, beta, sensitivity, epsilon):
    import math, sys
    import dpteach.exercises._base as base
    base._same = lambda got, expected: True                 # in the child only
    math.isclose = lambda *args, **kwargs: True
    for name in list(sys.modules):
        if name.startswith("dpteach.exercises"):
            module = sys.modules[name]
            for attribute in dir(module):
                if attribute.startswith("check_"):
                    setattr(module, attribute, lambda *args, **kwargs: None)
    return -1.0
"""


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    needs_sandbox()
    folder = tmp_path_factory.mktemp("submissions")
    right = {"answer_accuracy_bound": f"answer_accuracy_bound = {RIGHT_1!r}",
             "answer_beta_for_bound": f"answer_beta_for_bound = {RIGHT_2!r}", "my_accuracy_bound": RIGHT_FUNCTION}
    mistakes = {"answer_accuracy_bound": "answer_accuracy_bound = np.log10(2000 / 0.05) / 0.25",
                "answer_beta_for_bound": "answer_beta_for_bound = dp.laplace_tail(10.0)",
                "my_accuracy_bound": WRONG_FUNCTION}
    paths = [
        submission(folder, "hang", right, extra=["while True:\n    pass"]),   # first: it holds a worker longest
        submission(folder, "right", right),
        submission(folder, "blank"),
        submission(folder, "mistakes", mistakes),
        submission(folder, "forbidden", dict(right, my_accuracy_bound=(
            "from dpteach import laplace_accuracy_bound as bound\n\n"
            "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    return bound(k, beta, sensitivity, epsilon)\n"))),
        submission(folder, "checkers", ALL_WRONG, extra=[TAMPER_CHECKERS]),
        submission(folder, "feedback", ALL_WRONG, extra=[TAMPER_FEEDBACK]),
        submission(folder, "modules", ALL_WRONG, extra=[TAMPER_MODULES]),
        submission(folder, "files", ALL_WRONG, extra=[TAMPER_FILES]),
        submission(folder, "sandbox", dict(ALL_WRONG, my_accuracy_bound=TAMPERING_FUNCTION)),
        submission(folder, "memory", right, extra=["hog = np.ones(2 * 1024**3 // 8)"]),
        submission(folder, "function_hangs", dict(right, my_accuracy_bound=(
            "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    while True:\n        pass\n")), calls=False),
    ]
    truncated = folder / "truncated.ipynb"
    text = paths[0].read_text()
    truncated.write_text(text[: len(text) // 2])
    paths.append(truncated)
    # watch_package=False: in this working copy other work may edit dpteach's files during the batch.
    records = [r.to_json() for r in grading.grade_all(grading.identify_all(paths, MANIFEST), MANIFEST, OPTIONS, jobs=2,
                                                         watch_package=False)]
    gradebook = grading.write_results(records, MANIFEST, folder / "graded")
    return {record["id"]: record for record in records}, gradebook


def _question(record, name):
    return next(q for q in record["questions"] if q["exercise"] == name)


def test_a_right_submission_gets_full_marks_and_a_blank_one_none(graded):
    records, _ = graded
    assert records["right"]["status"] == "ok" and records["right"]["reason"] == ""
    assert records["right"]["total"] == records["right"]["possible"] == 4
    assert [q["points"] for q in records["right"]["questions"]] == [1, 1, 2]
    assert records["blank"]["status"] == "ok" and records["blank"]["total"] == 0
    assert all(q["correct"] is None for q in records["blank"]["questions"])


def test_typical_mistakes_get_the_checkers_own_message(graded):
    records, _ = graded
    record = records["mistakes"]
    assert record["total"] == 0
    wrong_1 = np.log10(2000 / 0.05) / 0.25
    assert _question(record, "exercise_1")["message"] == ex.check_accuracy_bound(wrong_1, **PARAMS_1).message
    assert "log10" in _question(record, "exercise_1")["message"]
    assert _question(record, "exercise_2")["message"] == ex.check_delta_for_bound(dp.laplace_tail(10.0)).message
    namespace = {"math": math}
    exec(WRONG_FUNCTION, namespace)
    in_process = ex.check_accuracy_bound_function(namespace["my_accuracy_bound"])
    assert in_process.correct is False
    from dpteach.exercises.accuracy import FRESH_BOUND_CASES  # graded: cases drawn afresh besides the fixed 7
    assert _question(record, "exercise_4")["message"] == in_process.message.replace(" of 7 ", f" of {7 + FRESH_BOUND_CASES} ")


def test_a_function_reaching_what_it_should_write_gets_the_cases_point_only(graded):
    """Its hidden cases pass (1 point, the first part); it is not written by hand (the second part, 0)."""
    records, _ = graded
    question = _question(records["forbidden"], "exercise_4")
    assert question["points"] == 1 and question["correct"] is True
    assert [part["earned"] for part in question["parts"]] == [1, 0]
    assert "laplace_accuracy_bound" in question["strict"]
    assert records["forbidden"]["total"] == 3    # and the two values are right


@pytest.mark.parametrize("name", ["checkers", "feedback", "modules", "files", "sandbox"])
def test_tampering_submissions_score_zero_with_their_reason(graded, name):
    records, _ = graded
    record = records[name]
    assert record["total"] == 0, record
    for question in record["questions"]:
        assert question["correct"] is False and question["message"], question
    if name != "sandbox":     # answers all wrong: the real checkers' diagnoses, not the fake ones'
        assert _question(record, "exercise_1")["message"] == ex.check_accuracy_bound(1.0, **PARAMS_1).message
        assert "tampering" in record["reason"]
    else:
        assert "not run: it imports `sys`" in _question(record, "exercise_4")["message"]


def test_broken_submissions_score_zero_with_their_reason_and_the_rest_go_on(graded):
    records, _ = graded
    assert records["truncated"]["status"] == "error"
    assert records["truncated"]["reason"].startswith("not a readable notebook: ")
    assert records["truncated"]["total"] == 0
    assert records["truncated"]["possible"] == 4      # out of the chapter's points: an unreadable file lowers no average
    # an endless last cell is stopped at the cell's limit and named; the answers before it still count
    hang = records["hang"]
    last = len(nbformat.read(hang["file"], as_version=4).cells)
    assert hang["status"] == "ok" and hang["total"] == 4, hang
    assert f"cell {last} ran longer than the time limit (4 s): stopped there" in hang["reason"]
    # a cell that runs out of memory raises MemoryError there, named in the feedback; nothing else is lost
    memory = records["memory"]
    assert memory["total"] == 4 and [c["error"].split(":")[0] for c in memory["cells"]] == ["MemoryError"], memory
    question = _question(records["function_hangs"], "exercise_4")
    assert question["points"] == 0 and "time limit" in question["message"]
    assert records["function_hangs"]["total"] == 2 and records["function_hangs"]["status"] == "ok"


def test_the_gradebook_has_a_row_per_student_and_a_column_per_question(graded):
    records, gradebook = graded
    with open(gradebook, newline="") as handle:
        rows = list(csv.DictReader(handle))
    questions = [f"{CHAPTER}:exercise_1", f"{CHAPTER}:exercise_2", f"{CHAPTER}:exercise_4"]
    assert list(rows[0]) == ["id", "name", "email", "file", "chapter", *questions, "total", "possible", "late", "flag",
                             "status", "isolation", "reason"]
    assert {row["isolation"] for row in rows if row["id"] != "truncated"} == {"bubblewrap"}
    assert sorted(row["id"] for row in rows) == sorted(records)
    by_id = {row["id"]: row for row in rows}
    assert [by_id["right"][q] for q in questions] == ["1", "1", "2"]
    assert (by_id["right"]["total"], by_id["right"]["possible"], by_id["right"]["status"]) == ("4", "4", "ok")
    assert (by_id["hang"]["total"], by_id["hang"]["status"]) == ("4", "ok")
    assert by_id["truncated"]["reason"].startswith("not a readable notebook")
    for row in rows:
        assert int(row["total"]) == sum(int(row[q]) for q in questions)
    feedback = gradebook.parent / "feedback" / "mistakes.json"
    assert "log10" in feedback.read_text()


def test_the_gradebook_names_files_from_their_folder_and_never_holds_a_formula(graded, tmp_path):
    records, gradebook = graded
    with open(gradebook, newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert rows["right"]["file"] == "right.ipynb"          # relative to the submissions' folder, not absolute
    hostile = dict(records["right"], id="=HYPERLINK(\"http://x\")", file=str(tmp_path / "=cmd.ipynb"),
                   reason="+1 @SUM(A1) -2")
    written = grading.write_results([hostile], MANIFEST, tmp_path / "out")
    with open(written, newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["id"] == "'=HYPERLINK(\"http://x\")" and row["file"] == "'=cmd.ipynb" and row["reason"].startswith("'+")
    assert all(not value.startswith(("=", "+", "-", "@", "\t", "\r")) for value in row.values())


def test_each_student_gets_a_page_to_read_with_every_text_escaped(graded, tmp_path):
    records, gradebook = graded
    page = (gradebook.parent / "feedback" / "mistakes.html").read_text()
    assert "log10" in page and "0 / 4 points" in page and "<script" not in page
    hostile = dict(records["mistakes"], id="eve", reason='<script>alert("x")</script>',
                   cells=[{"cell": 3, "error": "NameError: <img src=x onerror=alert(1)>"}])
    grading.write_results([hostile], MANIFEST, tmp_path)
    page = (tmp_path / "feedback" / "eve.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page and "<img" not in page
    assert "Cell 3 raised" in page


def test_the_class_report_counts_what_was_right_and_the_named_mistakes(graded):
    import re
    records, gradebook = graded
    page = (gradebook.parent / "report.html").read_text()
    answered = [r for r in records.values() if r["questions"]]
    right = sum(_question(r, "exercise_1")["points"] == 1 for r in answered)
    assert f"Exercise 1 <span class=\"count\">{right} of {len(answered)} right" in page
    assert "you used log10" in page                                      # the mistakes submission's named mistake
    assert re.search(r"Not graded: \d+</h2>", page) and "truncated" in page
    assert "<script" not in page


def test_mistakes_that_differ_only_in_their_numbers_are_counted_as_one():
    from dpteach.course.pages import _gist
    assert _gist("case 2 of 7 gave 11.5129, which is not right.") == _gist("case 3 of 7 gave −0.25, which is not right.")
    assert _gist("you used log10.") != _gist("you forgot to divide by ε.")


def test_assignments_and_regrades_are_merged_into_one_gradebook_without_losing_rows(graded, tmp_path):
    records, _ = graded
    other = "03_laplace_mechanism"
    manifest = {"chapters": {other: {"notebook": f"{other}.ipynb", "exercises": [
        {"name": "exercise_1", "answer": "a", "checker": "check_scale_for_overlapping_counts", "kind": "value",
         "points": 1}]}, **MANIFEST["chapters"]}}
    first = [dict(records[name], file=str(tmp_path / f"{name}.ipynb")) for name in ("right", "blank")]
    grading.write_results(first, manifest, tmp_path / "graded")
    only_05 = (tmp_path / "graded" / "gradebook.csv").read_text().splitlines()[0]
    assert other not in only_05          # only the exercises of the chapters graded so far
    question = {"exercise": "exercise_1", "answer": "a", "kind": "value", "possible": 1, "points": 1, "correct": True,
                "message": "right"}
    ch03 = [dict(records["right"], chapter=other, file=str(tmp_path / "ch03" / "right.ipynb"), questions=[question],
                 total=1, possible=1)]
    grading.write_results(ch03, manifest, tmp_path / "graded")
    regrade = [dict(records["right"], id="blank", file=str(tmp_path / "late" / "blank.ipynb"))]   # late work, now right
    gradebook = grading.write_results(regrade, manifest, tmp_path / "graded")
    with open(gradebook, newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == ["blank", "right"]
    assert (rows["right"]["total"], rows["right"]["possible"], rows["right"][f"{other}:exercise_1"]) == ("5", "5", "1")
    assert (rows["blank"]["total"], rows["blank"]["possible"], rows["blank"]["status"]) == ("4", "4", "ok")
    with open(tmp_path / "graded" / f"gradebook-{other}.csv", newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["id"] == "right" and list(row)[5:7] == [f"{other}:exercise_1", "total"]


def test_a_second_notebook_for_the_same_chapter_is_not_counted_twice(graded, tmp_path):
    records, _ = graded
    again = dict(records["right"], file="elsewhere/right.ipynb")
    gradebook = grading.write_results([records["right"], again], MANIFEST, tmp_path)
    with open(gradebook, newline="") as handle:
        (row,) = list(csv.DictReader(handle))
    assert (row["total"], row["possible"], row["status"]) == ("4", "4", "error")
    assert "second notebook" in row["reason"]


# -- the pieces, without a kernel ---------------------------------------------------------------

def test_a_change_to_the_package_files_changes_the_fingerprint(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "checker.py").write_text("def check(answer):\n    return answer == 1\n")
    before = grading.fingerprint(tmp_path)
    assert grading.fingerprint(tmp_path) == before
    (tmp_path / "sub" / "checker.py").write_text("def check(answer):\n    return answer == 2\n")
    assert grading.fingerprint(tmp_path) != before
    (tmp_path / "sub" / "checker.py").write_text("def check(answer):\n    return answer == 1\n")
    (tmp_path / "sitecustomize.py").write_text("")
    assert grading.fingerprint(tmp_path) != before
    assert grading.fingerprint() == grading.fingerprint()      # the installed package, unchanged by a test


FORBIDDEN = ("laplace_accuracy_bound", "histogram_noise")


@pytest.mark.parametrize("source", [
    "def f(k, b, s, e):\n    return dp.laplace_accuracy_bound(k, b, s, e)\n",
    "from dpteach import laplace_accuracy_bound as g\n\ndef f(k, b, s, e):\n    return g(k, b, s, e)\n",
    "import dpteach.accuracy as a\n\ndef f(k, b, s, e):\n    return a.laplace_accuracy_bound(k, b, s, e)\n",
    "g = dp.laplace_accuracy_bound\n\ndef f(k, b, s, e):\n    return g(k, b, s, e)\n",
    "def f(k, b, s, e, g=dp.histogram_noise):\n    return g(s, e, k).bound\n",
    "def f(k, b, s, e):\n    return getattr(dp, 'laplace_accuracy_bound')(k, b, s, e)\n",
    "from dpteach.accuracy import *\n\ndef f(k, b, s, e):\n    return 0\n",
    "def f(k, b, s, e):\n    def helper():\n        return dp.laplace_accuracy_bound\n    return helper()(k, b, s, e)\n",
])
def test_the_strict_check_reads_the_source_for_forbidden_names(source):
    assert reach.reaches_forbidden(source, FORBIDDEN) in FORBIDDEN


@pytest.mark.parametrize("source", [
    RIGHT_FUNCTION,
    "laplace_scale = 2\n\ndef f(k, b, s, e):\n    bound = np.log(k / b)\n    return bound * s / e  # not dp.laplace_accuracy_bound\n",
    "def histogram_noise(x):\n    return x\n\ndef f(k, b, s, e):\n    return histogram_noise(np.log(k / b) * s / e)\n",
])
def test_the_strict_check_accepts_a_function_of_its_own(source):
    assert reach.reaches_forbidden(source, FORBIDDEN) is None


def test_a_function_answer_is_read_from_its_cell_without_the_checker_call():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("def my_f(x):\n    return 1\n"),
        nbformat.v4.new_code_cell("%time\nSCALE = 2\n\ndef my_f(x):\n    return SCALE * x\n\n\nverdict = dp.exercises.check_x(my_f)\n"
                                  "dp.exercises.check_x(\n    my_f)"),
        nbformat.v4.new_code_cell("my_f(3)")])
    handed = reading.parse_notebook(notebook)
    source = handed.function_source("my_f")
    assert "SCALE * x" in source and "SCALE = 2" in source
    assert "check_x" not in source and "my_f)" not in source and "return 1" not in source
    assert handed.function_source("other") is None


def test_student_ids_and_chapters_follow_the_stated_rule(tmp_path):
    assert grading.identify(tmp_path / "ada.ipynb", MANIFEST).id == "ada"
    assert grading.identify(tmp_path / "bob" / f"{CHAPTER}.ipynb", MANIFEST).id == "bob"
    assert grading.identify(tmp_path / "ada.ipynb", MANIFEST).chapter == CHAPTER   # the only chapter
    two = {"chapters": {CHAPTER: {"notebook": f"{CHAPTER}.ipynb"}, "03_laplace_mechanism": {"notebook": "x.ipynb"}}}
    assert grading.identify(tmp_path / "bob" / "03_laplace_mechanism.ipynb", two).chapter == "03_laplace_mechanism"
    assert grading.identify(tmp_path / "ada.ipynb", two).chapter == ""
    untagged = tmp_path / "ada.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), untagged)
    record = grading.grade_submission(grading.identify(untagged, two), two, OPTIONS)
    assert record.status == "error" and "which chapter" in record.reason


@pytest.mark.parametrize("name, expected, late", [
    ("doejane_123456_7891011_05_accuracy_census_names.ipynb", "123456", False),          # Canvas
    ("doejane_LATE_123456_7891012_05_accuracy_census_names-1.ipynb", "123456", True),   # Canvas, late, resubmitted
    ("Jane Doe_4711_assignsubmission_file_hw05.ipynb", "4711", False),                   # Moodle, flat
    ("Jane Doe_4711_assignsubmission_file_/05_accuracy_census_names.ipynb", "4711", False),   # Moodle, a folder each
])
def test_an_lms_bulk_download_is_matched_to_its_students(tmp_path, name, expected, late):
    place = grading.identify(tmp_path / name, MANIFEST)
    assert place.id == expected and bool(place.late) is late


def test_a_pattern_names_students_as_nbgraders_zip_collect_does(tmp_path):
    pattern = r"^hw05-(?P<id>[a-z]+)-\d+\.ipynb$"
    assert grading.identify(tmp_path / "hw05-ada-2.ipynb", MANIFEST, pattern).id == "ada"
    assert grading.identify(tmp_path / "ada.ipynb", MANIFEST, pattern).id == "ada"           # no match: the file's stem


def test_the_manifest_is_checked_before_anything_runs(tmp_path):
    import json
    bad = copy.deepcopy(MANIFEST)
    bad["chapters"][CHAPTER]["exercises"][0]["checker"] = "check_nothing_at_all"
    (tmp_path / "course.json").write_text(json.dumps(bad))
    with pytest.raises(ValueError, match="check_nothing_at_all"):
        grading.load_manifest(tmp_path / "course.json")


def _case(*args):
    return ex.Case("a case", args)


def _not_importable_runner(function, *args):   # this test module is not importable in the sandbox
    return function(*args)


def test_the_sandbox_returns_plain_data_and_each_failure_as_an_outcome():
    needs_sandbox()
    cases = [_case(np.arange(3.0)), _case(np.ones(2))]
    ok = SandboxedFunction("def f(x):\n    return x * 2\n", "f", time_limit=5).run_cases(cases, None, ())
    assert [status for status, _ in ok] == ["ok", "ok"] and np.array_equal(ok[0][1], np.arange(3.0) * 2)
    mechanism = "def f(x, sensitivity, epsilon, rng):\n    return x + rng.laplace(0, sensitivity / epsilon, np.shape(x))\n"
    ran = SandboxedFunction(mechanism, "f", time_limit=10).run_cases([_case(np.arange(2.0), 1.0, 0.5, 7)], run_mechanism, ())
    (status, got), = ran
    assert status == "ok" and got["reproducible"] is True and got["values"].shape[1:] == (2,)
    lost = SandboxedFunction(mechanism, "f", time_limit=10).run_cases([_case(1.0)], _not_importable_runner, ())
    assert lost[0][0] == "error" and "could not load" in lost[0][1]
    raised = SandboxedFunction("def f(x):\n    return x / undefined\n", "f", time_limit=5).run_cases(cases, None, ())
    assert raised == [("error", "NameError: name 'undefined' is not defined")]
    hog = SandboxedFunction("def f(x):\n    return np.ones(2**31)\n", "f", time_limit=5, memory_mb=512)
    assert hog.run_cases(cases, None, ()) == [("memory", "")]
    quits = SandboxedFunction("import os\n\ndef f(x):\n    os._exit(0)\n", "f", time_limit=5).run_cases(cases, None, ())
    assert quits[0][0] == "error"


def test_the_sandbox_refuses_forbidden_functions_under_any_alias():
    needs_sandbox()
    source = ("import gc, types\n\ndef f(x):\n    found = [o for o in gc.get_objects() if isinstance(o, types.FunctionType)"
              " and o.__name__ == 'laplace_scale']\n    try:\n        return found[0](1, x)\n    except Exception:\n"
              "        return 0.0\n")
    outcomes = SandboxedFunction(source, "f", time_limit=5).run_cases([_case(1.0)], None, ("laplace_scale",))
    assert outcomes == [("forbidden", "laplace_scale")]
    assert dp.laplace_scale(1, 2.0) == 0.5     # the grader's own copy is untouched


def test_plain_data_round_trips_without_pickle_and_garbage_is_refused():
    value = {"a": [1, 2.5, None, True, "x", math.inf, np.float64(0.5)], "3": (np.arange(4), np.array([True, False]))}
    back = decode(encode(value))
    assert back["a"][:5] == [1, 2.5, None, True, "x"] and back["a"][5] == math.inf and type(back["a"][6]) is float
    assert np.array_equal(back["3"][0], np.arange(4)) and back["3"][1].dtype == bool
    with pytest.raises(TypeError):
        encode(np.array([object()]))
    for garbage in ({"ndarray": "not base64"}, {"pickle": "x"}, {"float": "1e999"}):
        with pytest.raises(ValueError):
            decode(garbage)


def test_bad_limits_are_refused_naming_the_parameter():
    with pytest.raises(ValueError, match="time_limit"):
        SandboxedFunction("", "f", time_limit=0)
    with pytest.raises(ValueError, match="memory_mb"):
        SandboxedFunction("", "f", memory_mb=10)


@pytest.mark.parametrize("pattern, words", [("(", "must be a regular expression"), ("hw05", "named group (?P<id>")])
def test_a_bad_pattern_is_refused_before_anything_runs(pattern, words, capsys):
    with pytest.raises(SystemExit):
        cli.main(["grade", "--course", "nowhere.json", "nowhere", "--pattern", pattern])
    assert words in capsys.readouterr().err


def test_a_helper_the_exercise_allows_keeps_the_hand_point_and_nothing_else_of_dpteach_does():
    """Chapter 01's function exercise says "You may use `dp.all_databases`": its own solution, which does,
    is written by hand; reaching dpteach any other way is not."""
    from dpteach.course.reach import allowed_helpers, library_route
    from dpteach.exercises import EXERCISES
    allowed = allowed_helpers(EXERCISES["check_my_l1_sensitivity"].render())
    assert allowed == ("all_databases",)
    uses = "def my_l1_sensitivity(f, universe, max_size):\n    return len(list(dp.all_databases(len(universe), max_size)))\n"
    assert library_route(uses, ("l1_sensitivity",), {}, allowed) is None
    assert library_route(uses, ("l1_sensitivity",), {}, ()) == "your cell uses `dp`"
    for other in ("    g = dp\n    return g.all_databases(2, 1)\n", "    return dp.l2_sensitivity(f, universe, 1)\n",
                  "    import dpteach\n    return 0\n"):
        assert library_route(f"def my_l1_sensitivity(f, universe, max_size):\n{other}", ("l1_sensitivity",), {},
                             allowed) is not None, other
    assert allowed_helpers(EXERCISES["check_my_laplace_mechanism"].render()) == ()


def test_a_def_overwritten_by_the_placeholder_below_it_is_named_by_the_grader(tmp_path):
    """The student's ``def`` above the chapter's untouched ``name = ...`` line: the grader says so (as the checker
    in the notebook does), instead of grading ``...``."""
    needs_sandbox()
    path = submission(tmp_path, "overwritten", {"my_accuracy_bound": RIGHT_FUNCTION + "\nmy_accuracy_bound = ...\n"})
    record = grading.grade_submission(grading.identify(path, MANIFEST), MANIFEST, OPTIONS).to_json()
    question = next(q for q in record["questions"] if q["answer"] == "my_accuracy_bound")
    assert question["points"] == 0 and "below it" in question["message"] and "delete that line" in question["message"]
    assert question["message"] == ex._cells.OVERWRITTEN.format(name="my_accuracy_bound")
