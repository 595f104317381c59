"""Chapter 10's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math

import pytest
from helpers import assert_checker_contract

from dpteach.exercises import applications as ex

Q = 0.75                                          # e^ε/(1 + e^ε) at ε = ln 3
ESTIMATE = (0.6 - (1 - Q)) / (2 * Q - 1)


def test_randomized_response_contract():
    assert_checker_contract(ex.check_randomized_response_estimate, ESTIMATE, 0.9)


@pytest.mark.parametrize("wrong, says", [
    (0.6, "raw share"),
    (0.6 / (2 * Q - 1), "not subtracted"),
    ((0.6 - (1 - Q)) / Q, "divides by q"),
    ((0.6 - 1 / (1 + math.e**3)) / (2 * math.e**3 / (1 + math.e**3) - 1), "ε = 3"),
    (1 - ESTIMATE, "*no*"),
])
def test_randomized_response_names_each_mistake(wrong, says):
    verdict = ex.check_randomized_response_estimate(wrong)
    assert verdict.correct is False and says in verdict.message and f"{ESTIMATE:g}" not in verdict.message


def test_purchase_sensitivity_contract():
    assert_checker_contract(ex.check_purchase_sensitivity, 4, 2)


@pytest.mark.parametrize("wrong, says", [(1, "counted once"), (3, "example customer"), (16, "kinds of customer"),
                                         (2.0, "ℓ2-sensitivity")])
def test_purchase_sensitivity_names_each_mistake(wrong, says):
    verdict = ex.check_purchase_sensitivity(wrong)
    assert verdict.correct is False and says in verdict.message


def test_dpsgd_noise_scale_contract():
    assert_checker_contract(ex.check_dpsgd_noise_scale, 0.5 * 10 / 2.0, 1.0)


@pytest.mark.parametrize("wrong, says", [
    (0.5 / 2.0, "whole ε on one step"),
    (10 / 2.0, "replace-one"),
    (0.5 / (2.0 * 10), "divides by T"),
    (0.5 * math.sqrt(10) / 2.0, "√T"),
    (0.5 * 10 * 2.0, "multiplies by ε"),
])
def test_dpsgd_noise_scale_names_each_mistake(wrong, says):
    verdict = ex.check_dpsgd_noise_scale(wrong)
    assert verdict.correct is False and says in verdict.message
