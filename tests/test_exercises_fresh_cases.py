"""Every function exercise checks, when graded, cases no table of its fixed cases can hold (issue 54, part 4).

The fixed hidden cases of chapters 01, 02, 04 and 05 are in every student's installed copy of
dpteach, so a function could be a table of them. Graded (the function has ``run_cases``, as a grader's sandboxed
function does), each checker adds cases drawn from the grader's own entropy: a table of the fixed cases passes the
notebook's check and fails the grader's, naming a case drawn for this grading, and every right function (several
honest ways of writing it) passes every grading. Here the graded function runs in this process (``run_cases`` over
:func:`~dpteach.exercises.run_in_process`); tests/course/test_function_tables.py runs the same through the real
grading path in its sandbox. Chapter 03's mechanism is replayed exactly instead (tests/course/test_function_cheats.py).

False failures: the drawn cases are exact (their expected values are dpteach's formula or enumeration), so a right
function fails one only through floating-point rounding, which the checks' tolerance (10⁻⁹ relative, 10⁻¹² absolute)
is many orders above; ``test_right_functions_pass_every_grading`` grades each honest function
:data:`GRADINGS` times and sees no failure.
"""

from __future__ import annotations

import inspect
import math
import textwrap
from itertools import combinations_with_replacement

import numpy as np
import pytest
from helpers import sensitivity_by_enumeration

import dpteach as dp
from dpteach import exercises as ex
from dpteach.exercises import accuracy, counting, laplace, sensitivity
from dpteach.exercises._functions import DRAWN, FRESH_CASES, run_in_process

#: Gradings of each right function (each draws its cases afresh).
GRADINGS = 200


class Graded:
    """A function as a grader holds it: judged through ``run_cases`` (here in this process), so its checker draws
    fresh cases."""

    def __init__(self, function):
        self.function, self.__name__ = function, function.__name__
        self.source = textwrap.dedent(inspect.getsource(function))

    def run_cases(self, cases, runner, forbidden):
        return list(run_in_process(self.function, cases, runner, forbidden))


# -- right functions, several ways each ------------------------------------------------------------------

def cdf_branches(x, b):
    return 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b)


def cdf_sign(x, b):
    return 0.5 + 0.5 * np.sign(x) * (1 - np.exp(-abs(x) / b))


def cdf_expm1(x, b):
    if x <= 0:
        return 0.5 * np.exp(x / b)
    return 0.5 - 0.5 * np.expm1(-x / b)


def counting_columns(queries):
    return np.asarray(queries).sum(axis=0).max()


def counting_loops(queries):
    rows = [list(row) for row in queries]
    return max(sum(int(row[j]) for row in rows) for j in range(len(rows[0])))


def counting_norm(queries):
    return np.linalg.norm(np.asarray(queries, dtype=float), ord=1)


def l1_by_enumeration(f, universe, max_size):
    return sensitivity_by_enumeration(lambda change: np.abs(change).sum())(f, universe, max_size)


def l1_own_databases(f, universe, max_size):
    m = len(universe)
    largest = 0.0
    for size in range(max_size):
        for records in combinations_with_replacement(range(m), size):
            x = np.bincount(np.array(records, dtype=int), minlength=m)
            for i in range(m):
                y = x.copy()
                y[i] += 1
                change = np.atleast_1d(np.asarray(f(y), dtype=float)) - np.atleast_1d(np.asarray(f(x), dtype=float))
                largest = max(largest, float(np.sum(np.abs(change))))
    return largest


def bound_log(k, beta, sensitivity, epsilon):
    return np.log(k / beta) * sensitivity / epsilon


def bound_difference(k, beta, sensitivity, epsilon):
    return (math.log(k) - math.log(beta)) / (epsilon / sensitivity)


EXERCISES = {
    "bound": (ex.check_accuracy_bound_function, accuracy._bound_cases, 7, [bound_log, bound_difference]),
    "cdf": (ex.check_my_laplace_cdf, laplace._cdf_cases, 7, [cdf_branches, cdf_sign, cdf_expm1]),
    "counting": (ex.check_counting_sensitivity_function, counting._counting_cases, 8,
                 [counting_columns, counting_loops, counting_norm]),
    "sensitivity": (ex.check_my_l1_sensitivity, sensitivity._sensitivity_cases, 7,
                    [l1_by_enumeration, l1_own_databases]),
}
RIGHT = [(name, function) for name, (_, _, _, functions) in EXERCISES.items() for function in functions]


# -- tables of the fixed cases ---------------------------------------------------------------------------

def _key(args) -> str:
    """What a table keys a case on: its arguments, a query by its answer on a probe database."""
    parts = []
    for value in args:
        if callable(value):
            value = np.atleast_1d(value(np.arange(1, len(args[1]) + 1)))
        parts.append(repr(np.asarray(value, dtype=float).tolist()))
    return "|".join(parts)


def table_of(name: str, guess):
    """A function that returns the fixed cases' answers from a table, and ``guess`` (a function of the case's
    arguments) for any other case."""
    _, cases, _, _ = EXERCISES[name]
    answers = {_key(case.args): case.expected for case in cases()}

    def table(*args):
        key = _key(args)
        return answers[key] if key in answers else guess(*args)
    return table


TABLES = {
    "bound": table_of("bound", lambda k, beta, sensitivity, epsilon: 1.0),
    "cdf": table_of("cdf", lambda x, b: 0.5),
    "counting": table_of("counting", lambda queries: float(len(queries))),
    "sensitivity": table_of("sensitivity", lambda f, universe, max_size: 1.0),
}


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_a_table_of_the_fixed_cases_passes_the_notebook_check_and_fails_the_graders(name):
    checker, _, fixed, _ = EXERCISES[name]
    table = TABLES[name]
    here = checker(table)
    assert here.correct is True and f"all {fixed} hidden cases pass" in here.message, here.message
    graded = checker(Graded(table))
    assert graded.correct is False, graded.message
    assert f"case {fixed + 1} of {fixed + FRESH_CASES} ({DRAWN}" in graded.message, graded.message


@pytest.mark.parametrize("name, function", RIGHT, ids=[f"{n}-{f.__name__}" for n, f in RIGHT])
def test_right_functions_pass_the_notebook_check_on_the_fixed_cases_only(name, function):
    checker, _, fixed, _ = EXERCISES[name]
    verdict = checker(function)
    assert verdict.correct is True and f"all {fixed} hidden cases pass" in verdict.message, verdict.message


@pytest.mark.parametrize("name, function", RIGHT, ids=[f"{n}-{f.__name__}" for n, f in RIGHT])
def test_right_functions_pass_every_grading(name, function):
    checker, _, fixed, _ = EXERCISES[name]
    for _ in range(GRADINGS):
        verdict = checker(Graded(function))
        assert verdict.correct is True, verdict.message
        assert f"all {fixed + FRESH_CASES} hidden cases pass" in verdict.message


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_each_grading_draws_its_own_cases_and_the_notebook_none(name):
    import random
    _, cases, fixed, _ = EXERCISES[name]
    assert len(cases()) == fixed
    first, second = cases(random.SystemRandom()), cases(random.SystemRandom())
    assert len(first) == len(second) == fixed + FRESH_CASES
    assert all(case.label.startswith(DRAWN) for case in first[fixed:])
    assert [c.label for c in first[fixed:]] != [c.label for c in second[fixed:]]
    assert [c.label for c in first[:fixed]] == [c.label for c in cases()]


def test_drawn_cdf_points_try_both_branches_away_from_a_half():
    import random
    fresh = random.SystemRandom()
    for _ in range(200):
        drawn = laplace._cdf_cases(fresh)[7:]
        assert [case.args[0] < 0 for case in drawn[:2]] == [True, False]
        for case in drawn:
            x, b = case.args
            assert 0.1 <= b <= 5 and 0.049 <= abs(x) / b <= 8.001
            assert 1e-4 < case.expected < 1 - 1e-4 and abs(case.expected - 0.5) > 0.02


def test_drawn_query_matrices_answer_no_named_mistake():
    """Δf = d from 2–12, never the number of queries, the largest row sum or the whole sum (the feedback's named
    mistakes), in each of the three forms a student's function must read."""
    import random
    fresh = random.SystemRandom()
    answers = set()
    for _ in range(300):
        for case in counting._counting_cases(fresh)[8:]:
            a = np.asarray(case.args[0], dtype=int)
            d = case.expected
            answers.add(d)
            assert set(np.unique(a)) <= {0, 1} and 2 <= d <= 12 and d == a.sum(axis=0).max()
            assert d not in (a.shape[0], a.sum(axis=1).max(), a.sum(), 1)
        forms = [type(case.args[0]) for case in counting._counting_cases(fresh)[8:]]
        assert forms == [np.ndarray, np.ndarray, list]
    assert answers == set(range(2, 13))


def test_drawn_queries_have_a_positive_sensitivity_from_dpteachs_enumeration():
    import random
    fresh = random.SystemRandom()
    for _ in range(30):
        for case in sensitivity._sensitivity_cases(fresh)[7:]:
            f, universe, max_size = case.args
            assert case.expected > 0 and case.expected == dp.l1_sensitivity(f, universe, max_size)
