"""Chapter 01's checkers: the right answer passes, each known mistake is named, and the
function exercise names the hidden case that fails."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import assert_checker_contract, sensitivity_by_enumeration

import dpteach as dp
from dpteach import exercises


def test_count_and_sum_contract():
    assert_checker_contract(exercises.check_count_and_sum_sensitivity, 101, 100)


@pytest.mark.parametrize("wrong, says", [
    (100, "ℓ∞"),
    (math.sqrt(1 + 100**2), "ℓ2"),
    (1, "count alone"),
    (2, "not a count"),
    (202, "twice"),
])
def test_count_and_sum_names_the_mistake(wrong, says):
    verdict = exercises.check_count_and_sum_sensitivity(wrong)
    assert verdict.correct is False and says in verdict.message
    assert "101" not in verdict.message


def test_l2_counts_contract():
    assert_checker_contract(exercises.check_l2_sensitivity_of_counts, 3, 9)


@pytest.mark.parametrize("wrong, says", [(9, "ℓ1-sensitivity"), (81, "squared the number"), (1, "ℓ∞")])
def test_l2_counts_names_the_mistake(wrong, says):
    verdict = exercises.check_l2_sensitivity_of_counts(wrong)
    assert verdict.correct is False and says in verdict.message


def test_an_unknown_wrong_answer_gets_the_generic_hint():
    verdict = exercises.check_l2_sensitivity_of_counts(5)
    assert verdict.correct is False and "Euclidean length" in verdict.message


# -- my_l1_sensitivity ---------------------------------------------------------------------------

reference = sensitivity_by_enumeration(lambda change: float(np.abs(change).sum()))


def from_empty_only(f, universe, max_size):
    empty = np.zeros(len(universe), dtype=int)
    return max(float(np.abs(np.atleast_1d(f(e)) - np.atleast_1d(f(empty))).sum())
               for e in np.eye(len(universe), dtype=int))


def test_reference_solution_passes():
    verdict = exercises.check_my_l1_sensitivity(reference)
    assert verdict.correct is True and "7 hidden cases" in verdict.message


@pytest.mark.parametrize("wrong, case, says", [
    (sensitivity_by_enumeration(lambda v: float(np.linalg.norm(v))), "opposite directions", "ℓ2 norm"),
    (sensitivity_by_enumeration(lambda v: float(np.abs(v).max())), "opposite directions", "single coordinate (ℓ∞)"),
    (sensitivity_by_enumeration(lambda v: abs(float(v.sum()))), "opposite directions", "summed change"),
    (sensitivity_by_enumeration(lambda v: float(v.sum())), "opposite directions", "summed change"),
    (from_empty_only, "grows with the size", "only compared the empty database"),
])
def test_typical_wrong_functions_fail_naming_the_case_and_the_mistake(wrong, case, says):
    verdict = exercises.check_my_l1_sensitivity(wrong)
    assert verdict.correct is False
    assert case in verdict.message and says in verdict.message


def test_calling_dpteach_is_refused_and_restored():
    verdict = exercises.check_my_l1_sensitivity(lambda f, u, m: dp.l1_sensitivity(f, u, m))
    assert verdict.correct is False and "dp.l1_sensitivity" in verdict.message
    verdict = exercises.check_my_l1_sensitivity(lambda f, u, m: dp.neighbour_differences_reference(f, u, m).sensitivity)
    assert verdict.correct is False and "neighbour_differences_reference" in verdict.message
    assert dp.l1_sensitivity(lambda x: x.sum(), [0, 1], 2) == 1.0   # restored afterwards


def test_stub_errors_and_non_functions():
    def stub(f, universe, max_size):
        ...
    assert exercises.check_my_l1_sensitivity(stub).correct is None   # the stub as given: not answered yet

    def forgot(f, universe, max_size):
        max_size + 1
    assert "forget `return`" in exercises.check_my_l1_sensitivity(forgot).message
    assert exercises.check_my_l1_sensitivity(...).correct is None
    assert exercises.check_my_l1_sensitivity(3).correct is False
    verdict = exercises.check_my_l1_sensitivity(lambda f, u, m: 1 / 0)
    assert verdict.correct is False and "ZeroDivisionError" in verdict.message
