"""Chapter 08's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math

import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach.exercises import gaussian as ex

SIGMA = dp.gaussian_sigma(10.0, 1.0, 1e-5)               # Δ₂f = √100
DELTA = 1 - math.exp((0.25 - 0.5) / 2)
GG = 4 * math.gamma(0.75) / math.gamma(0.25)


def test_gaussian_sigma_contract():
    assert_checker_contract(ex.check_gaussian_sigma_for_counts, SIGMA, 5.0)


@pytest.mark.parametrize("wrong, says", [
    (dp.gaussian_sigma(100.0, 1.0, 1e-5), "ℓ1-sensitivity"),
    (dp.gaussian_sigma(1.0, 1.0, 1e-5), "one count"),
    (math.sqrt(2 * math.log(1.25 / 1e-5)) * 10, "Theorem 3.22"),
    (SIGMA**2, "variance"),
    (100.0, "Laplace"),
])
def test_gaussian_sigma_names_each_mistake(wrong, says):
    verdict = ex.check_gaussian_sigma_for_counts(wrong)
    assert verdict.correct is False and says in verdict.message and f"{SIGMA:.3f}" not in verdict.message


def test_laplace_delta_contract():
    assert_checker_contract(ex.check_laplace_delta, DELTA, 0.5)


@pytest.mark.parametrize("wrong, says", [
    (0.0, "δ = 0 holds"),                                  # δ forgotten
    (math.exp(-0.125), "ratio e^(…)"),
    (1 - math.exp(-0.25), "/2 in the exponent is missing"),
    (1 - math.exp(0.25 - 2), "uses b where"),
])
def test_laplace_delta_names_each_mistake(wrong, says):
    verdict = ex.check_laplace_delta(wrong)
    assert verdict.correct is False and says in verdict.message


def test_generalized_gaussian_variance_contract():
    assert_checker_contract(ex.check_generalized_gaussian_variance, GG, 3.0)


@pytest.mark.parametrize("wrong, says", [
    (math.sqrt(GG), "standard deviation"),                 # std for variance
    (4.0, "σ is a scale"),
    (2.0, "p = 2"),
    (GG / 4, "σ² is missing"),
    (2 * math.gamma(0.5) / math.gamma(0.25), "r = 1"),
    (8.0, "Laplace"),
])
def test_generalized_gaussian_variance_names_each_mistake(wrong, says):
    verdict = ex.check_generalized_gaussian_variance(wrong)
    assert verdict.correct is False and says in verdict.message
