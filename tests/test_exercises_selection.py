"""Chapter 07's exercise checkers: the right answer passes, and each common mistake gets its own message."""

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach.exercises import selection as ex

UPSET = 0.25 * math.exp(-1) * 3                  # b = 2, d = 2: ¼·e^(−d/b)·(2 + d/b)
U = np.array([47, 43, 31, 22, 12])


def _softmax(weights):
    w = np.exp(weights - weights.max())
    return w / w.sum()


def test_noisy_max_upset_contract():
    assert_checker_contract(ex.check_noisy_max_upset, UPSET, 0.4)


@pytest.mark.parametrize("wrong, says", [
    (1 - UPSET, "SMALLER count"),
    (0.25 * math.exp(-4) * 6, "b = ε"),
    (0.5 * math.exp(-1), "only one count's noise"),
    (0.5 * math.exp(-0.5), "Lap(2b)"),
])
def test_noisy_max_upset_names_each_mistake(wrong, says):
    verdict = ex.check_noisy_max_upset(wrong)
    assert verdict.correct is False and says in verdict.message and "0.2759" not in verdict.message


def test_exponential_probability_contract():
    assert_checker_contract(ex.check_exponential_probability, _softmax(0.5 * U / 4)[1], 0.9)


@pytest.mark.parametrize("wrong, says", [
    (_softmax(0.5 * U / 2)[1], "ε where ε/2 belongs"),
    (_softmax(0.5 * U)[1], "Δu is missing"),
    (43 / U.sum(), "share of the total"),
    (_softmax(0.5 * U / 4)[0], "first venue"),
    (0.2, "uniform"),
])
def test_exponential_probability_names_each_mistake(wrong, says):
    verdict = ex.check_exponential_probability(wrong)
    assert verdict.correct is False and says in verdict.message


def test_exponential_probability_without_delta_u_in_two_delta_u():
    """exp(ε·u/2) has the 2 but not Δu: with Δu = 2 that is the same as exp(ε·u/Δu), so the
    ε-for-ε/2 message answers it first; both name what is missing."""
    verdict = ex.check_exponential_probability(_softmax(0.5 * U / 2)[1])
    assert verdict.correct is False and "2Δu" in verdict.message


def test_above_threshold_alpha_contract():
    assert_checker_contract(ex.check_above_threshold_alpha, dp.above_threshold_accuracy(1_000, 0.05, 0.5), 10.0)


@pytest.mark.parametrize("wrong, says", [
    (8 * (3 + math.log10(40)) / 0.5, "log10"),
    ((math.log(1_000) + math.log(40)) / 0.5, "factor 8"),
    (8 * (math.log(1_000) + math.log(20)) / 0.5, "ln(1/β)"),
    (8 * (math.log(1_000) + math.log(40)) * 0.5, "multiplies by ε"),
    (8 * (1_000 + math.log(40)) / 0.5, "uses k where"),
])
def test_above_threshold_alpha_names_each_mistake(wrong, says):
    verdict = ex.check_above_threshold_alpha(wrong)
    assert verdict.correct is False and says in verdict.message
