"""The students' edition keeps the answers back; the instructor's edition has them all.

What students open (notebooks/NN_name.ipynb, the book, Binder) holds each solution folded in
Markdown, with no output and nothing Run All can execute, and no speaker note at all. The
solutions are still checked: each runs on its own (numpy, math and dpteach) and its checker
says it is right. The instructor edition (`make present`, `make slides`, `make html INSTRUCTOR=1`)
puts the notes of instructor/NN_name.md back at the slide each names and opens the solutions.
"""

import json
import math
import re

import nbformat
import numpy as np
import pytest
from helpers import ROOT

import dpteach as dp
from dpteach.publish import editions

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHAPTERS = {path.stem: nbformat.read(path, as_version=4) for path in NOTEBOOKS}
EXERCISES = [(stem, exercise) for stem, nb in CHAPTERS.items() for exercise in editions.exercises(nb, stem)]


@pytest.mark.parametrize("stem", CHAPTERS)
def test_a_chapter_has_exercises_each_with_an_answer_cell_and_a_folded_solution(stem):
    nb = CHAPTERS[stem]
    found = editions.exercises(nb, stem)
    assert len(found) >= (1 if stem.startswith("00") else 2)
    assert [e.number for e in found] == list(range(1, len(found) + 1)), "exercises are numbered 1, 2, … in order"
    for exercise in found:
        solution = nb.cells[exercise.solution_cell]
        assert solution.cell_type == "markdown", "a solution is Markdown: Run All never runs it"
        assert editions.source(solution).startswith(editions.FOLDED), "folded: nothing shows before the click"
        assert "open" not in editions.source(solution).split("\n", 1)[0]
        assert solution.metadata.get("slideshow", {}).get("slide_type") == "skip"
        student = nb.cells[exercise.student_cell]
        shown = json.dumps(student.get("outputs", []))
        assert "Your turn" in shown and "Correct" not in shown and "Not quite" not in shown, \
            "the answer cell's stored output invites an answer (a stub is not judged wrong)"


@pytest.mark.parametrize("stem", CHAPTERS)
def test_no_solution_runs_and_no_speaker_note_is_in_the_students_edition(stem):
    for cell in CHAPTERS[stem].cells:
        assert editions.INSTRUCTOR not in cell.metadata.get("tags", []), "speaker notes live in instructor/"
        assert cell.metadata.get("slideshow", {}).get("slide_type") != "notes"
        assert "Speaker notes" not in editions.source(cell)
        if cell.cell_type == "code":
            assert editions.SOLUTION not in cell.metadata.get("tags", []), "a solution as code would run on Run All"
            assert "source_hidden" not in cell.metadata.get("jupyter", {}), "collapsing still shows a first line"


@pytest.mark.parametrize(("stem", "exercise"), EXERCISES, ids=[f"{s}-{e.name}" for s, e in EXERCISES])
def test_each_solution_runs_on_its_own_and_its_checker_says_right(stem, exercise):
    """The folded solution, run with only numpy, math and dpteach, passes its own checker."""
    code = editions.solution_code(CHAPTERS[stem].cells[exercise.solution_cell])
    namespace = {"np": np, "math": math, "dp": dp}
    exec(compile(exercise.solution, f"<{stem} {exercise.name} solution>", "exec"), namespace)
    feedback = eval(exercise.call, namespace)
    assert code.rstrip().endswith(exercise.call)
    assert feedback.correct is True, feedback


@pytest.mark.parametrize("stem", CHAPTERS)
def test_every_speaker_note_finds_its_slide_in_the_instructor_edition(stem):
    notes = editions.read_notes(ROOT / "instructor" / f"{stem}.md")
    assert 3 <= sum(map(len, notes.values())) <= 8, "a few notes per chapter"
    nb = CHAPTERS[stem]
    teacher = editions.instructor_edition(nb, stem, ROOT)
    cells = [c for c in teacher.cells if c.metadata.get("slideshow", {}).get("slide_type") == "notes"]
    assert len(cells) == sum(map(len, notes.values()))
    assert all(editions.INSTRUCTOR in c.metadata["tags"] for c in cells)
    for heading, texts in notes.items():
        for text in texts:
            at = next(i for i, c in enumerate(teacher.cells) if editions.source(c) == text)
            before = [editions.source(c) for c in teacher.cells[:at] if c.cell_type == "markdown"]
            headings = [h for s in before for h in re.findall(r"(?m)^#{1,3} (.+?)\s*$", s)]
            assert headings and headings[-1] == heading, "a note sits on the slide whose heading it names"
    solutions = [c for c in teacher.cells if editions.is_solution(c)]
    assert solutions and all(editions.source(c).startswith(editions.OPEN) for c in solutions)


def test_a_note_for_a_heading_the_chapter_lacks_is_an_error():
    nb = CHAPTERS["03_laplace_mechanism"]
    with pytest.raises(ValueError, match="does not have"):
        editions.with_notes(nb, {"A heading nobody wrote": ["**Speaker notes.** lost"]}, "03")


class _Held:
    """A student's function as the grader holds it: its cell's source, never run here."""

    def __init__(self, source, name):
        self.source, self.name, self.__name__ = source, name, name

    def run_cases(self, cases, runner, forbidden):
        raise AssertionError("a stub is not run")


def test_the_stub_as_given_invites_an_answer_and_a_body_is_judged():
    """`def f(...): ...` is the chapter's stub: "Your turn", not "Not quite" (in a notebook and when graded)."""
    stub = _Held("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    ...   # your answer here\n",
                 "my_accuracy_bound")
    assert dp.exercises.check_accuracy_bound_function(stub).correct is None
    forgot = {"np": np}
    exec("def my_accuracy_bound(k, beta, sensitivity, epsilon):\n    np.log(k / beta) * sensitivity / epsilon\n", forgot)
    assert dp.exercises.check_accuracy_bound_function(forgot["my_accuracy_bound"]).correct is False
