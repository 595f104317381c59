"""A table of a function exercise's fixed hidden cases gets no point, in every chapter (issue 54, part 4).

Chapters 01, 02 and 04's fixed cases (like chapter 05's, tests/course/test_function_cheats.py) are in every
student's copy of dpteach, so a cell can hold their answers in a dict. Graded, each checker adds cases drawn from
the grader's entropy (:func:`dpteach.exercises._functions.grading_draws`): the table below, written as a student
would write it (its answers printed by dpteach here, its cell text a literal), gets 0 points, the message naming a
case drawn for this grading; the right functions beside it (two ways each) keep 2/2. Each runs through the real
grading path (:func:`dpteach.course.grading.grade_exercise`, the function in a bubblewrap sandbox of its own).
"""

import sys

import numpy as np
import pytest
from helpers import needs_sandbox
from test_function_cheats import graded_in_sandbox as _graded

from dpteach.exercises import counting, laplace, sensitivity
from dpteach.exercises._functions import DRAWN, FRESH_CASES

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the grading sandbox is Linux's bubblewrap")


def _exercise(answer: str, checker: str) -> dict:
    return {"name": "exercise_3", "answer": answer, "checker": checker, "kind": "function", "points": 2, "params": {}}


def _sensitivity_key(f, universe, max_size):
    return (tuple(float(u) for u in universe), max_size,
            tuple(np.atleast_1d(f(np.arange(1, len(universe) + 1))).astype(float).tolist()))


CDF_TABLE = ("ANSWERS = " + repr({case.args: case.expected for case in laplace._cdf_cases()}) + "\n\n"
             "def my_laplace_cdf(x, b):\n    return ANSWERS.get((x, b), 0.5)\n")
COUNTING_TABLE = ("ANSWERS = " + repr({tuple(tuple(int(v) for v in row) for row in np.asarray(case.args[0])):
                                       case.expected for case in counting._counting_cases()}) + "\n\n"
                  "def my_counting_sensitivity(queries):\n"
                  "    key = tuple(tuple(int(v) for v in row) for row in np.asarray(queries))\n"
                  "    return ANSWERS.get(key, float(len(queries)))\n")
SENSITIVITY_TABLE = ("ANSWERS = " + repr({_sensitivity_key(*case.args): case.expected
                                          for case in sensitivity._sensitivity_cases()}) + "\n\n"
                     "def my_l1_sensitivity(f, universe, max_size):\n"
                     "    key = (tuple(float(u) for u in universe), max_size,\n"
                     "           tuple(np.atleast_1d(f(np.arange(1, len(universe) + 1))).astype(float).tolist()))\n"
                     "    return ANSWERS.get(key, 1.0)\n")

ENUMERATION = ("def my_l1_sensitivity(f, universe, max_size):\n    largest = 0.0\n"
               "    for x in dp.all_databases(len(universe), max_size - 1):\n"
               "        for i in range(len(universe)):\n            y = x.copy()\n            y[i] += 1\n"
               "            change = np.atleast_1d(f(y)) - np.atleast_1d(f(x))\n"
               "            largest = max(largest, float(np.abs(change).sum()))\n    return largest\n")
OWN_DATABASES = ("def databases(m, size):\n    if m == 1:\n        return [[n] for n in range(size + 1)]\n"
                 "    return [[n] + rest for n in range(size + 1) for rest in databases(m - 1, size - n)]\n\n"
                 "def my_l1_sensitivity(f, universe, max_size):\n    m = len(universe)\n    largest = 0.0\n"
                 "    for counts in databases(m, max_size - 1):\n        x = np.array(counts)\n"
                 "        for i in range(m):\n            y = x.copy()\n            y[i] += 1\n"
                 "            change = np.atleast_1d(np.asarray(f(y), dtype=float) - np.asarray(f(x), dtype=float))\n"
                 "            largest = max(largest, float(np.sum(np.abs(change))))\n    return largest\n")

#: exercise, its fixed cases' count, the table, and right functions written two ways.
CHAPTERS = {
    "02 CDF": (_exercise("my_laplace_cdf", "check_my_laplace_cdf"), 7, CDF_TABLE, [
        "def my_laplace_cdf(x, b):\n    return 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b)\n",
        "def my_laplace_cdf(x, b):\n    return 0.5 + 0.5 * np.sign(x) * (1 - np.exp(-abs(x) / b))\n"]),
    "04 counting": (_exercise("my_counting_sensitivity", "check_counting_sensitivity_function"), 8, COUNTING_TABLE, [
        "def my_counting_sensitivity(queries):\n    return np.asarray(queries).sum(axis=0).max()\n",
        "def my_counting_sensitivity(queries):\n    return np.linalg.norm(np.asarray(queries, dtype=float), ord=1)\n"]),
    "01 enumeration": (_exercise("my_l1_sensitivity", "check_my_l1_sensitivity"), 7, SENSITIVITY_TABLE,
                       [ENUMERATION, OWN_DATABASES]),
}


@pytest.fixture(scope="module")
def graded():
    from concurrent.futures import ThreadPoolExecutor
    needs_sandbox()
    jobs = {}
    for chapter, (exercise, _, table, right) in CHAPTERS.items():
        jobs[chapter, "table"] = (exercise, table)
        jobs.update({(chapter, f"right {n}"): (exercise, source) for n, source in enumerate(right)})
    with ThreadPoolExecutor(2) as pool:
        done = {key: pool.submit(_graded, *job) for key, job in jobs.items()}
        return {key: future.result() for key, future in done.items()}


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_a_table_of_the_fixed_cases_passes_them_in_the_notebook(chapter):
    """The table is a real cheat: the notebook's own check (fixed cases only) passes it."""
    exercise, fixed, table, _ = CHAPTERS[chapter]
    namespace = {"np": np, "math": __import__("math")}
    exec(table, namespace)
    from dpteach import exercises
    verdict = getattr(exercises, exercise["checker"])(namespace[exercise["answer"]])
    assert verdict.correct is True and f"all {fixed} hidden cases pass" in verdict.message, verdict.message


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_a_table_of_the_fixed_cases_gets_no_point_when_graded(graded, chapter):
    _, fixed, _, _ = CHAPTERS[chapter]
    result = graded[chapter, "table"]
    assert (result["points"], result["correct"]) == (0, False), result
    assert f"case {fixed + 1} of {fixed + FRESH_CASES} ({DRAWN}" in result["message"], result["message"]


@pytest.mark.parametrize("chapter, number", [(c, n) for c in sorted(CHAPTERS) for n in range(2)])
def test_right_functions_keep_both_points_when_graded(graded, chapter, number):
    _, fixed, _, _ = CHAPTERS[chapter]
    result = graded[chapter, f"right {number}"]
    assert (result["points"], result["correct"]) == (2, True), result
    assert f"all {fixed + FRESH_CASES} hidden cases pass" in result["message"]
    assert result["strict"].startswith("written by hand"), result["strict"]
