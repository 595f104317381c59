"""Chapter 06's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math

import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach.exercises import composition as ex

LN = math.log(1e6)


def test_session_spend_contract():
    assert_checker_contract(ex.check_session_spend, 0.5 + 0.2, 0.9)


@pytest.mark.parametrize("wrong, says", [
    (0.3 + 0.5 + 0.2, "sequential composition of all three"),     # sum where max belongs
    (0.5, "only the largest"),                                     # max where the sum belongs
    (0.3 + 0.5, "whole-town count forgotten"),
])
def test_session_spend_names_each_mistake(wrong, says):
    verdict = ex.check_session_spend(wrong)
    assert verdict.correct is False and says in verdict.message
    assert "0.7" not in verdict.message                            # never gives the answer away


def test_queries_bought_contract():
    assert_checker_contract(ex.check_queries_bought, dp.advanced_composition_max_k(1.0, 0.02, 1e-6), 1)


def _largest_k(fits):
    k = 0
    while fits(k + 1):
        k += 1
    return k


#: The exercise's own numbers: a total of 1, δ′ = 10⁻⁶, counts at ε = 0.02 (the chapter works ε = 0.01).
EPS = 0.02


@pytest.mark.parametrize("wrong, says", [
    (50, "basic composition"),
    (_largest_k(lambda k: math.sqrt(2 * k * LN) * EPS <= 1), "second term"),
    (_largest_k(lambda k: math.sqrt(2 * k * math.log10(1e6)) * EPS + k * EPS * math.expm1(EPS) <= 1), "log10"),
])
def test_queries_bought_names_each_mistake(wrong, says):
    verdict = ex.check_queries_bought(wrong)
    assert verdict.correct is False and says in verdict.message
    assert str(dp.advanced_composition_max_k(1.0, EPS, 1e-6)) not in verdict.message


def test_split_variance_contract():
    assert_checker_contract(ex.check_split_variance, 2 * 2.0**2 / 2, 3.0)


@pytest.mark.parametrize("wrong, says", [
    (2 * 2.0**2, "one answer at ε/2"),            # the averaging forgotten
    (2 * 2 * 2.0**2, "sum of the two"),           # the variance of the sum
    (2 * 1.0**2, "full ε"),                       # one answer at ε; also std of the average, or b² for 2b²
    (2 * 1.0**2 / 2, "scale Δf/ε for each answer"),
])
def test_split_variance_names_each_mistake(wrong, says):
    verdict = ex.check_split_variance(wrong)
    assert verdict.correct is False and says in verdict.message


def test_split_variance_names_a_standard_deviation_where_it_is_no_other_mistake_s_number():
    """At ε = 1 the average's standard deviation is 2, the variance of one answer at the full ε: a message for 2 that
    said "standard deviation" there would hand over the answer (its square); at ε = 3 the two differ."""
    verdict = ex.check_split_variance(2 / 3, epsilon=3.0)
    assert verdict.correct is False and "standard deviation" in verdict.message
    assert "standard deviation" not in ex.check_split_variance(2.0).message
