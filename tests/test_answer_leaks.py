"""No chapter gives away the answer to one of its own exercises (issue 37).

For every numeric exercise of every chapter, the expected value at the chapter's numbers
(``EXERCISES[name].expected()``, computed by the checker itself) must not appear in the chapter's
other cells: not in the text of its Markdown cells, and not in the outputs its code cells print. A
chapter's outputs are read from the stored notebook, which is what executing it gives: nbval (run over
notebooks/ by the same suite) re-executes every chapter and fails on any compared output that differs
(printed text, text/plain, HTML; figures are pictures, not searched). The exercise's own three cells
(prompt, answer cell, folded solution) are left out: the solution may state its answer. Code fenced in a
Markdown cell (another exercise's solution) is code, not prose: `np.arange(0, 101)` states no answer.

"Appears" means a number written in the text that the checker would take for the answer at the
precision it grades, by the checker's own rule: at n significant figures, a number written with at least n of
them within half a unit in the n-th figure of the answer (``exercises._feedback.tolerance``, what the checker
accepts: so 0.7310, 0.731 and 73.1% all give 0.731 away, 0.73 does not, and 7.835 gives 7.8354 away, though a
binary float rounds 7.835 down to 7.83); for a whole-number
answer, that whole number (answers below 10 are exempt: "4" cannot be kept out of a chapter's prose).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT

from dpteach.course.leaks import cell_texts, gives_away
from dpteach.exercises import EXERCISES
from dpteach.publish.editions import exercises

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

def test_the_matcher_sees_an_answer_in_every_spelling_and_nothing_else():
    assert gives_away("best guess 0.731, or 73.1%, or 0.7311", 0.7310585786300049, 3) == ["0.731", "73.1%", "0.7311"]
    assert gives_away("about 0.73 and 0.732 and 10.731", 0.7310585786300049, 3) == []
    assert gives_away("b = 1,600 or 1600 or 1.60e3", 1600.0, 3) == ["1,600", "1600"]
    assert gives_away("the loss is 2 and 2.0, but 2.00 gives it away", 2.0000000000000036, 3) == ["2.00"]
    assert gives_away("buys 564 answers, not 5640 or 564.2", 564.0, None) == ["564"]
    assert gives_away("k = 4 and 4 again", 4.0, None) == []


def test_the_matcher_takes_what_the_checker_takes():
    """Chapter 09 printed 7.835 for Exercise 1's 7.8354 (issue 51): rounded as a binary float 7.835 is 7.83, so a
    matcher that rounds missed it, while the checker accepts any answer within 0.005. The matcher asks the checker."""
    from dpteach.exercises import EXERCISES, check_discrete_laplace_variance
    expected = EXERCISES["check_discrete_laplace_variance"].expected()
    assert check_discrete_laplace_variance(7.835).correct and gives_away("theory 7.835", expected, 3) == ["7.835"]
    for written in ("7.83", "7.840", "7.8406", "7.8304"):    # as the checker judges each
        taken = check_discrete_laplace_variance(float(written)).correct
        assert (gives_away(written, expected, 3) == [written]) == taken, written


#: Exercise → why its chapter still shows its answer (strict xfail, so the test says when a fix lands): none left.
KNOWN: dict[str, str] = {}


def _leaks():
    for nb_path in NOTEBOOKS:
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        for ex in exercises(nb, nb_path.stem):
            spec = EXERCISES[ex.checker]
            if spec.kind != "value":
                continue
            marks = pytest.mark.xfail(reason=KNOWN[ex.checker], strict=True) if ex.checker in KNOWN else ()
            yield pytest.param(nb_path, ex, spec, id=f"{nb_path.stem[:2]}-{ex.checker}", marks=marks)


@pytest.mark.parametrize("nb_path, ex, spec", list(_leaks()))
def test_no_chapter_prints_or_states_its_own_exercise_answer(nb_path: Path, ex, spec):
    nb = json.loads(nb_path.read_text(encoding="utf-8"))
    expected = spec.expected()
    own = {ex.prompt_cell, ex.student_cell, ex.solution_cell}
    leaks = [(index, token) for index, cell in enumerate(nb["cells"]) if index not in own
             for text in cell_texts(cell) for token in gives_away(text, expected, spec.figures)]
    assert not leaks, (f"{nb_path.stem}, Exercise {ex.number} ({ex.checker}): its answer {expected:.6g} appears in "
                       f"cells {leaks}")


def test_every_numeric_exercise_of_every_chapter_is_covered():
    covered = {ex.checker for p in NOTEBOOKS for ex in exercises(json.loads(p.read_text(encoding="utf-8")), p.stem)}
    numeric = {name for name, spec in EXERCISES.items() if spec.kind == "value"}
    assert numeric <= covered, f"exercises registered but in no chapter: {sorted(numeric - covered)}"


def test_the_common_mistakes_page_gives_no_exercise_answer_away():
    """The self-study book's "Common mistakes" page (generated from the checkers' registry) links to the sections
    that teach each step; it must state no numeric exercise's answer at the chapter's numbers either."""
    from dpteach.book import chapters
    from dpteach.publish.book_site import short_title
    from dpteach.publish.mistakes_page import page
    text = page({c.path.stem: short_title(c) for c in chapters(ROOT / "notebooks")})
    assert "Common mistakes" in text
    leaks = [(name, token) for name, spec in EXERCISES.items() if spec.kind == "value"
             for token in gives_away(text, spec.expected(), spec.figures)]
    assert not leaks, f"the Common mistakes page states these answers: {leaks}"
