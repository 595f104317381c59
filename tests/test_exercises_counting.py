"""Chapter 04's exercise checkers: the right answer passes, each known mistake is named, and the
function the student writes is run on hidden cases (Dwork & Roth, Definition 3.1, Examples 3.1–3.2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises

# (checker, right answer, the wrong answer of a named mistake, words its message must contain)
MISTAKES = [
    (exercises.check_overlapping_bands_sensitivity, 2, 4, "number of bands"),
    (exercises.check_overlapping_bands_sensitivity, 2, 1, "not disjoint"),
    (exercises.check_overlapping_bands_sensitivity, 2, 3, "pairs of bands overlap"),
    (exercises.check_overlapping_bands_sensitivity, 2, 40, "row sum"),
    (exercises.check_count_relative_error, 10 / 5_000, 10 / 1_000_000, "divided by n"),
    (exercises.check_count_relative_error, 10 / 5_000, 0.1 / 5_000, "multiplied by ε"),
    (exercises.check_count_relative_error, 10 / 5_000, 10, "absolute error"),
    (exercises.check_count_relative_error, 10 / 5_000, 0.2, "percentage"),
    (exercises.check_count_relative_error, 10 / 5_000, 2 * 10**2 / 5_000, "variance"),
    (exercises.check_count_relative_error, 10 / 5_000, math.sqrt(2) * 10 / 5_000, "standard deviation"),
    (exercises.check_count_relative_error, 10 / 5_000, 5_000 / 10, "divided the count"),
    (exercises.check_derived_count_std, math.sqrt(8), 8, "variance of the sum"),
    (exercises.check_derived_count_std, math.sqrt(8), 2, "2b², not b²"),
    (exercises.check_derived_count_std, math.sqrt(8), 4 * math.sqrt(2), "standard deviations. Independent"),
    (exercises.check_derived_count_std, math.sqrt(8), math.sqrt(2), "one cell's"),
    (exercises.check_derived_count_std, math.sqrt(8), 4, "scales b"),
    (exercises.check_derived_count_std, math.sqrt(8), 9 * math.sqrt(2), "asked directly"),
]


@pytest.mark.parametrize("check, right, wrong, words", MISTAKES)
def test_each_known_mistake_gets_its_own_message(check, right, wrong, words):
    assert_checker_contract(check, right, wrong)
    verdict = check(wrong)
    assert verdict.correct is False and words in verdict.message, verdict.message
    assert f"{right:g}" not in verdict.message.split(":", 1)[1]     # the expected value is never given away


def test_every_listed_mistake_of_each_checker_is_reachable():
    """No two mistakes of one checker share a value, and none equals the right answer (it would never be named)."""
    for check, right in ((exercises.check_overlapping_bands_sensitivity, 2),
                         (exercises.check_count_relative_error, 0.002),
                         (exercises.check_derived_count_std, math.sqrt(8))):
        wrongs = [w for c, _, w, _ in MISTAKES if c is check]
        assert len(set(np.round(wrongs, 9))) == len(wrongs)
        assert all(not math.isclose(w, right, rel_tol=1e-3) for w in wrongs)


def test_an_unlisted_wrong_answer_gets_the_generic_hint():
    verdict = exercises.check_overlapping_bands_sensitivity(7)
    assert verdict.correct is False and "largest number of queries one person" in verdict.message


# -- exercise 4: my_counting_sensitivity -------------------------------------------------------

def reference(queries):
    return np.asarray(queries, dtype=float).sum(axis=0).max()


def test_the_reference_solution_passes():
    verdict = exercises.check_counting_sensitivity_function(reference)
    assert verdict.correct is True and "hidden cases pass" in verdict.message


def test_not_answered_yet_is_your_turn_and_a_non_function_is_refused():
    assert exercises.check_counting_sensitivity_function(...).correct is None
    assert exercises.check_counting_sensitivity_function(None).correct is None
    assert exercises.check_counting_sensitivity_function(3).correct is False


@pytest.mark.parametrize("wrong, case, words", [
    (lambda q: np.asarray(q).sum(axis=1).max(), "case 1 of", "largest ROW sum"),
    (lambda q: len(q), "(a histogram: 5 disjoint cells)", "number of queries m"),
    (lambda q: 1, "case 1 of", "queries are disjoint"),
    (lambda q: np.asarray(q).sum(), "case 1 of", "whole matrix"),
    (lambda q: np.asarray(q).sum(axis=0), "case 1 of", "one number per record type"),
    (lambda q: np.asarray(q).sum(axis=1), "case 1 of", "one number per query"),
    (lambda q: q.sum(axis=0).max(), "(a matrix given as nested Python lists) raised AttributeError", ""),
    (lambda q: np.asarray(q, dtype=float).max(), "case 1 of", ""),
])
def test_typical_wrong_functions_fail_naming_the_case(wrong, case, words):
    verdict = exercises.check_counting_sensitivity_function(wrong)
    assert verdict.correct is False
    assert case in verdict.message and words in verdict.message, verdict.message


def test_calling_the_dpteach_function_is_refused_and_restored_afterwards():
    original = dp.counting_queries_sensitivity
    for name in ("counting_queries_sensitivity", "l1_sensitivity"):
        verdict = exercises.check_counting_sensitivity_function(
            lambda q, name=name: getattr(dp, name)(np.asarray(q)) if name != "l1_sensitivity"
            else dp.l1_sensitivity(lambda h: np.asarray(q) @ h, np.arange(np.asarray(q).shape[1]), max_size=1))
        assert verdict.correct is False and f"dp.{name}" in verdict.message, verdict.message
    assert dp.counting_queries_sensitivity is original
    assert dp.counting_queries_sensitivity(np.eye(3)) == 1.0
