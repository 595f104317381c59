"""Autograded homework (dpteach.assignments, otter-grader): built from the chapters, graded locally.

otter is driven as a command in a subprocess (``import otter`` warns, and warnings are errors
here); dpteach.assignments strips PYTHONWARNINGS from those subprocesses. The grading tests build
ONE chapter (05: three numeric exercises and a function to write) and grade three submissions;
the cheap tests check every chapter's master notebook.
"""

from __future__ import annotations

import json
import math
import re
import sys

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import dpteach as dp
from dpteach import assignments

CHAPTER = assignments.NOTEBOOKS / "05_accuracy_census_names.ipynb"

# The submission with typical mistakes: the code a student would write, substituted for the stubs.
MISTAKES = {
    "answer_accuracy_bound": "answer_accuracy_bound = np.log10(1_000 / 0.01) / 0.5   # log10 where Theorem 3.8 has ln",
    "answer_beta_for_bound": "answer_beta_for_bound = 10_000 * np.exp(-10.0)   # right",
    "answer_dominance_threshold": "answer_dominance_threshold = (3 / 0.5) ** 2   # the variance b² where Lap(b) has 2b²",
    # right formula, but through the dpteach function the exercise asks them to write, under another name:
    # the notebook's checker (the public test) cannot see it, the hidden test does
    "my_accuracy_bound": ("from dpteach import laplace_accuracy_bound as bound\n\n"
                          "def my_accuracy_bound(k, beta, sensitivity, epsilon):\n"
                          "    return bound(k, beta, sensitivity=sensitivity, epsilon=epsilon)"),
}


def _exercises():
    return {exercise.answer: exercise for exercise in assignments.master_notebook(CHAPTER)[1]}


def _stub_lines(cell_source: str, answer: str) -> bool:
    return assignments.MARKER in cell_source and answer in cell_source


def _submission(student: dict, answers: dict[str, str]) -> dict:
    """The student notebook with each named answer's stub replaced by ``answers[name]`` (the checker call kept)."""
    submission = json.loads(json.dumps(student))
    replaced = set()
    for cell in submission["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for answer, code in answers.items():
            if cell["cell_type"] == "code" and _stub_lines(source, answer):
                call = source.strip().splitlines()[-1]
                assert call.startswith("dp.exercises.check_"), call
                cell["source"] = f"{code}\n{call}\n"
                replaced.add(answer)
    assert replaced == set(answers), f"stubs not found for {set(answers) - replaced}"
    return submission


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("assignments")
    [folder] = assignments.build([CHAPTER], out)
    return folder


@pytest.fixture(scope="module")
def graded(built, tmp_path_factory):
    """The three submissions' per-question scores, the instructor's solutions graded first as a canary."""
    work = tmp_path_factory.mktemp("submissions")
    zip_path = assignments.autograder_zip(built)
    solution = built / "autograder" / CHAPTER.name          # otter's solution notebook: the chapter's solutions
    student_path = built / "student" / CHAPTER.name
    student = json.loads(student_path.read_text(encoding="utf-8"))
    results = {}
    # Canary: if dpteach were not importable in the grading kernel, every test would fail, yet
    # otter would exit 0 with a near-zero score. The solution must score full marks first.
    results["solution"] = assignments.scores(assignments.grade(zip_path, solution, work / "solution"))
    got = sum(s for s, _, _ in results["solution"].values())
    possible = sum(p for _, p, _ in results["solution"].values())
    if got != possible or possible == 0:
        pytest.fail(f"canary: the instructor's solutions scored {got:g}/{possible:g} "
                    f"(is dpteach importable in the grading kernel?): {results['solution']}")
    results["blank"] = assignments.scores(assignments.grade(zip_path, student_path, work / "blank"))
    mistakes = work / "mistakes.ipynb"
    mistakes.write_text(json.dumps(_submission(student, MISTAKES)), encoding="utf-8")
    results["mistakes"] = assignments.scores(assignments.grade(zip_path, mistakes, work / "mistakes"))
    return results


def test_the_solutions_score_full_marks(graded):
    exercises = _exercises()
    expected = {e.name: (e.points, e.points, []) for e in exercises.values()}
    assert graded["solution"] == {name: (float(s), float(p), m) for name, (s, p, m) in expected.items()}
    assert sum(e.points for e in exercises.values()) == 5   # three numbers (1 point each) and a function (2)


def test_a_blank_submission_scores_zero_and_is_told_it_has_not_answered(graded):
    for name, (score, possible, messages) in graded["blank"].items():
        assert score == 0 and possible > 0, name
        assert messages and all(message.startswith("✏️ Your turn: Not answered yet") for message in messages), messages


def test_typical_mistakes_score_exactly_and_get_the_checkers_diagnosis(graded):
    """2/5: exercise 2 right; 1 and 3 wrong with their named mistakes; exercise 4 passes the
    notebook's checker (public test, 1 point) but reaches dp.laplace_accuracy_bound under another
    name, which the hidden test refuses (0 of its 1 point)."""
    table = graded["mistakes"]
    bound = dp.exercises.check_accuracy_bound(np.log10(1_000 / 0.01) / 0.5)
    threshold = dp.exercises.check_dominance_threshold((3 / 0.5) ** 2)
    assert bound.correct is False and "log10" in bound.message
    assert threshold.correct is False and "2b²" in threshold.message
    assert table["exercise_1"] == (0.0, 1.0, [repr(bound)])
    assert table["exercise_2"] == (1.0, 1.0, [])
    assert table["exercise_3"] == (0.0, 1.0, [repr(threshold)])
    score, possible, messages = table["exercise_4"]
    assert (score, possible) == (1.0, 2.0)
    assert messages == ["❌ Not quite: your function calls dp.laplace_accuracy_bound, which is what this exercise asks "
                        "you to write yourself: use numpy and the formula."]
    assert sum(s for s, _, _ in table.values()) == 2.0


def _solution_values(built) -> dict[str, object]:
    """The value of every answer in the instructor's solution notebook, by running it (nbclient, with a timeout)."""
    notebook = nbformat.read(built / "autograder" / CHAPTER.name, as_version=4)
    names = [e.answer for e in _exercises().values() if e.kind == "value"]
    notebook.cells.append(nbformat.v4.new_code_cell(f"import json as _j; print(_j.dumps({{n: globals()[n] for n in {names!r}}}))"))
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(built)}}).execute()
    return json.loads(notebook.cells[-1].outputs[0]["text"])


def _forms(value) -> set[str]:
    """How a value could be written in a file: repr, and to 6 and 4 significant digits."""
    if isinstance(value, str):
        return {f'"{value}"', f"'{value}'"}
    return {repr(value), f"{value:g}", f"{value:.4g}", f"{value:,.4g}"}


def test_no_answer_or_solution_code_reaches_the_student(built):
    student_text = "\n".join(path.read_text(encoding="utf-8") for path in sorted((built / "student").rglob("*"))
                             if path.is_file())
    values = _solution_values(built)
    assert set(values) == {"answer_accuracy_bound", "answer_beta_for_bound", "answer_dominance_threshold"}
    for name, value in values.items():
        assert isinstance(value, float) and math.isfinite(value)
        for form in _forms(value):
            # as a number of its own: not inside a longer number, a word or a base64 image
            assert not re.search(rf"(?<![\w.+/]){re.escape(form)}(?![\w+/]|\.\d)", student_text), \
                f"{name}'s value appears in the student files as {form!r}"
    for exercise in _exercises().values():
        for line in _solution_only(exercise):
            assert line not in student_text, f"{exercise.name}'s solution line {line!r} reaches the student"
    assert "BEGIN SOLUTION" not in student_text and "# SOLUTION" not in student_text


def _code_lines(source: str) -> list[str]:
    """The solution's lines that carry code (no blanks, no comment-only lines), without comments."""
    lines = []
    for line in source.splitlines():
        code = line.split("#", 1)[0].strip()
        if code:
            lines.append(code)
    return lines


def _solution_only(exercise) -> list[str]:
    """The solution's code lines that the chapter's stub does not give the student (e.g. a def line)."""
    given = set(_code_lines(exercise.stub)) | {line.lstrip("# ").strip() for line in exercise.stub.splitlines()}
    return [line for line in _code_lines(exercise.solution) if line not in given]


def _emulate_student(cell_source: str) -> str:
    """What otter assign leaves of a solution cell: NO PROMPT blocks and the PROMPT markers removed."""
    kept, inside = [], False
    for line in cell_source.splitlines():
        if line.rstrip().endswith("# BEGIN SOLUTION NO PROMPT"):
            inside = True
        elif line.rstrip().endswith("# END SOLUTION"):
            inside = False
        elif not inside and not line.rstrip().endswith(("# BEGIN PROMPT", "# END PROMPT")):
            kept.append(line)
    return "\n".join(kept)


@pytest.mark.parametrize("chapter", assignments.chapters_with_exercises(), ids=lambda path: path.stem[:2])
def test_every_chapter_has_a_master_whose_every_solution_line_is_marked(chapter):
    master, exercises = assignments.master_notebook(chapter)
    cells = master["cells"]
    source = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells]
    assert source[0].startswith("# ASSIGNMENT CONFIG") and "init_cell: false" in source[0]
    assert exercises, chapter
    assert len({e.answer for e in exercises}) == len(exercises)
    assert not any("solution" in c.get("metadata", {}).get("tags", []) for c in cells), "a chapter solution cell leaked"
    assert not any("instructor" in c.get("metadata", {}).get("tags", []) for c in cells), "speaker notes reach students"
    assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code")
    assert "jupytext" not in master["metadata"]
    for exercise in exercises:
        begin = source.index(f"# BEGIN QUESTION\nname: {exercise.name}\npoints: {exercise.points}\ncheck_cell: false")
        end = source.index("# END QUESTION", begin)
        block = source[begin:end]
        assert block[1] == exercise.prompt and block[2] == "# BEGIN SOLUTION" and block[4] == "# END SOLUTION"
        solution_cell = block[3]
        # every solution line sits inside the NO PROMPT block; what is left is the chapter's stub and checker call
        assert _emulate_student(solution_cell) == f"{exercise.stub}\n{exercise.call}"
        for line in _solution_only(exercise):
            assert line not in _emulate_student(solution_cell), (exercise.name, line)
        tests = block[block.index("# BEGIN TESTS") + 1:block.index("# END TESTS")]
        assert len(tests) == (2 if exercise.kind == "function" else 1)
        assert all(exercise.call.split("(")[0].removeprefix("dp.exercises.") in test for test in tests)
        if exercise.kind == "function":
            assert tests[1].startswith("# HIDDEN\n") and "strict_check(" in tests[1]
    assert "otter" not in sys.modules, "dpteach.assignments must not import otter (it warns)"


def test_the_stub_of_a_function_exercise_is_the_chapters_word_for_word():
    notebook = json.loads(CHAPTER.read_text(encoding="utf-8"))
    student_cells = ["".join(c["source"]) for c in notebook["cells"]
                     if c["cell_type"] == "code" and assignments.MARKER in "".join(c["source"])]
    exercises = list(_exercises().values())
    assert [f"{e.stub}\n{e.call}" for e in exercises] == [re.sub(r"\n+$", "", s) for s in student_cells]


def test_the_otter_environment_drops_warnings_as_errors(monkeypatch):
    monkeypatch.setenv("PYTHONWARNINGS", "error")
    assert "PYTHONWARNINGS" not in assignments.otter_environment()


def test_strict_check_refuses_the_forbidden_function_under_any_name():
    """The hidden test's checker: as the notebook's, plus a scan for the forbidden function under another name."""
    from dpteach import laplace_accuracy_bound as alias
    from dpteach.exercises._base import strict_check
    checker = dp.exercises.check_accuracy_bound_function

    def right(k, beta, sensitivity, epsilon):
        return np.log(k / beta) * sensitivity / epsilon

    def aliased(k, beta, sensitivity, epsilon):
        return alias(k, beta, sensitivity=sensitivity, epsilon=epsilon)

    def through_a_helper(k, beta, sensitivity, epsilon):
        return aliased(k, beta, sensitivity, epsilon)

    def by_default(k, beta, sensitivity, epsilon, bound=dp.laplace_accuracy_bound):
        return bound(k, beta, sensitivity=sensitivity, epsilon=epsilon)

    def with_log10(k, beta, sensitivity, epsilon):
        return np.log10(k / beta) * sensitivity / epsilon

    assert strict_check(checker, right) == checker(right) and checker(right).correct
    assert strict_check(checker, with_log10) == checker(with_log10) and "log10" in checker(with_log10).message
    for cheat in (aliased, through_a_helper, by_default):
        assert checker(cheat).correct, cheat.__name__            # the notebook's checker cannot see these
        verdict = strict_check(checker, cheat)
        assert verdict.correct is False and "calls dp.laplace_accuracy_bound" in verdict.message, cheat.__name__
    assert dp.exercises.accuracy.check_function is dp.exercises.check_function   # restored afterwards
