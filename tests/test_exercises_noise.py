"""Chapter 09's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math

import pytest
from helpers import assert_checker_contract

from dpteach.exercises import noise as ex

A = math.exp(-0.5)                       # α = e^(−ε/Δf) at ε = 0.5
VAR = 2 * A / (1 - A) ** 2
B = math.exp(-2)                         # α = e^(−Δf/ε): the ratio upside down


def test_discrete_laplace_variance_contract():
    assert_checker_contract(ex.check_discrete_laplace_variance, VAR, 5.0)


@pytest.mark.parametrize("wrong, says", [
    (8.0, "continuous Laplace"),
    (math.sqrt(VAR), "standard deviation"),
    (A / (1 - A) ** 2, "factor 2 is missing"),
    (2 * B / (1 - B) ** 2, "e^(−Δf/ε)"),
    (2 * A / (1 - A), "square is missing"),
])
def test_discrete_laplace_variance_names_each_mistake(wrong, says):
    verdict = ex.check_discrete_laplace_variance(wrong)
    assert verdict.correct is False and says in verdict.message and f"{VAR:.4f}" not in verdict.message


def test_audit_epsilon_contract():
    assert_checker_contract(ex.check_audit_epsilon, math.log(0.29 / 0.09), 2.0)


@pytest.mark.parametrize("wrong, says", [
    (math.log(0.30 / 0.09), "δ is forgotten"),
    (math.log(0.31 / 0.09), "δ is added"),
    (math.log(0.30 / 0.10), "added to U_y"),
    (0.29 / 0.09, "ratio bound e^ε"),
    (math.log10(0.29 / 0.09), "log10"),
    (math.log(0.09 / 0.29), "upside down"),
])
def test_audit_epsilon_names_each_mistake(wrong, says):
    verdict = ex.check_audit_epsilon(wrong)
    assert verdict.correct is False and says in verdict.message
