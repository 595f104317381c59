"""Chapters 00 and 02's checkers: the right answer passes, each known mistake is named (without
giving the right value away), and the function exercise names the hidden case that fails."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises


def test_scale_for_count_contract():
    assert_checker_contract(exercises.check_scale_for_count, 2.0, 0.7)


def test_feedback_renders_as_html_with_its_verdict():
    html = exercises.check_scale_for_count(2)._repr_html_()
    assert "Correct" in html and "<div" in html


@pytest.mark.parametrize("wrong, says", [
    (0.5, "multiplied by ε"), (1.0, "forgot to divide by ε"),
    (2 * math.sqrt(2), "standard deviation"), (8.0, "variance"),
])
def test_scale_for_count_names_the_mistake(wrong, says):
    verdict = exercises.check_scale_for_count(wrong)
    assert verdict.correct is False and says in verdict.message and " 2." not in verdict.message


def test_tail_probability_contract():
    assert_checker_contract(exercises.check_tail_probability, math.exp(-3), 0.3)


@pytest.mark.parametrize("wrong, says", [
    (math.exp(-6), "threshold itself"), (math.exp(-12), "multiplied the threshold by b"),
    (1 - math.exp(-3), "SMALL draw"), (0.5 * math.exp(-3), "one tail only"),
    (dp.laplace_pdf(6.0, 2.0), "density"),
])
def test_tail_probability_names_the_mistake(wrong, says):
    verdict = exercises.check_tail_probability(wrong)
    assert verdict.correct is False and says in verdict.message
    assert f"{math.exp(-3):.4f}" not in verdict.message


def test_epsilon_for_std_contract():
    assert_checker_contract(exercises.check_epsilon_for_std, math.sqrt(2) / 10, 0.5)


@pytest.mark.parametrize("wrong, says", [
    (0.1, "standard deviation to be b"), (1 / math.sqrt(5), "treated 10 as the variance"),
    (0.2, "to be 2b"), (10 / math.sqrt(2), "solve b = Δf/ε for ε"),
])
def test_epsilon_for_std_names_the_mistake(wrong, says):
    verdict = exercises.check_epsilon_for_std(wrong)
    assert verdict.correct is False and says in verdict.message


def test_epsilon_for_std_unknown_answer_says_what_it_gives():
    verdict = exercises.check_epsilon_for_std(0.5)
    assert verdict.correct is False and "with ε = 0.5 the noise has standard deviation" in verdict.message


# -- my_laplace_cdf --------------------------------------------------------------------------------

def reference(x, b):
    return 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(-x / b)


def test_reference_solution_passes():
    verdict = exercises.check_my_laplace_cdf(reference)
    assert verdict.correct is True and "7 hidden cases" in verdict.message


@pytest.mark.parametrize("wrong, case, says", [
    (lambda x, b: 0.5 * math.exp(-abs(x) / b), "x > 0, b = 2", "upper tail"),
    (lambda x, b: math.exp(-abs(x) / b) / (2 * b), "x = 0", "density"),
    (lambda x, b: 0.5 * math.exp(x / b) if x >= 0 else 1 - 0.5 * math.exp(-x / b), "x < 0, b = 2", "swapped"),
    (lambda x, b: 0.5 * math.exp(x / b) if x < 0 else 1 - 0.5 * math.exp(x / b), "x > 0, b = 2", "exponent has the wrong sign"),
    (lambda x, b: 0.5 * math.exp(x) if x < 0 else 1 - 0.5 * math.exp(-x), "x < 0, b = 2", "divide x by the scale"),
    (lambda x, b: math.exp(x / b) if x < 0 else 1 - math.exp(-x / b), "x = 0", "factor ½"),
])
def test_typical_wrong_functions_fail_naming_the_case_and_the_mistake(wrong, case, says):
    verdict = exercises.check_my_laplace_cdf(wrong)
    assert verdict.correct is False
    assert f"({case}" in verdict.message and says in verdict.message


def test_calling_dpteach_is_refused_and_restored():
    for name in ("laplace_cdf", "laplace_tail"):
        verdict = exercises.check_my_laplace_cdf(lambda x, b, name=name: float(getattr(dp, name)(abs(x) / b)))
        assert verdict.correct is False and f"dp.{name}" in verdict.message
    assert dp.laplace_cdf(0.0, 1.0) == 0.5


def test_stub_and_errors():
    def stub(x, b):
        ...
    assert exercises.check_my_laplace_cdf(stub).correct is None      # the stub as given: not answered yet

    def forgot(x, b):
        0.5 * math.exp(x / b)
    assert "forget `return`" in exercises.check_my_laplace_cdf(forgot).message
    assert exercises.check_my_laplace_cdf(None).correct is None
    verdict = exercises.check_my_laplace_cdf(lambda x, b: np.array([0.5, 0.5]))
    assert verdict.correct is False and "case 1 of 7" in verdict.message
