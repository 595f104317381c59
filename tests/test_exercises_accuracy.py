"""Chapter 05's exercise checkers: the right answer passes, each known mistake is named, and the
function the student writes is run on hidden cases (Dwork & Roth, Fact 3.7 and Theorem 3.8)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import assert_checker_contract

import dpteach as dp
from dpteach import exercises

BOUND = math.log(1_000 / 0.01) / 0.5                # exercise 1: k = 1,000, β = 0.01, Δf = 1, ε = 0.5
BETA = 10_000 * math.exp(-10)                       # exercise 2: k = 10,000, bound 10, ε = 1
CROSSOVER = 2 * (3 / 0.5) ** 2                      # exercise 3: c = 3, ε = 0.5

MISTAKES = [
    (exercises.check_accuracy_bound, BOUND, math.log10(1e5) / 0.5, "log10"),
    (exercises.check_accuracy_bound, BOUND, math.log2(1e5) / 0.5, "log2"),
    (exercises.check_accuracy_bound, BOUND, math.log(1 / 0.01) / 0.5, "ONE noise"),
    (exercises.check_accuracy_bound, BOUND, math.log(1e5), "forgot to divide by ε"),
    (exercises.check_accuracy_bound, BOUND, math.log(1e5) * 0.5, "multiplied by ε"),
    (exercises.check_accuracy_bound, BOUND, math.log(1_000 * 0.01) / 0.5, "ln(k·β)"),
    (exercises.check_accuracy_bound, BOUND, 1_000 * math.log(100) / 0.5, "inside the logarithm"),
    (exercises.check_accuracy_bound, BOUND, math.log(1_000 / 0.99) / 0.5, "confidence 1 − β"),
    (exercises.check_accuracy_bound, BOUND, 1_000 * BOUND, "Δf = k"),
    (exercises.check_delta_for_bound, BETA, math.exp(-10), "ONE noise"),
    (exercises.check_delta_for_bound, BETA, 10_000 * 1e-10, "log10"),
    (exercises.check_delta_for_bound, BETA, 1 - BETA, "1 − β"),
    (exercises.check_delta_for_bound, BETA, math.exp(-10) / 10_000, "divided by k"),
    (exercises.check_dominance_threshold, CROSSOVER, 36, "2b², not b²"),
    (exercises.check_dominance_threshold, CROSSOVER, math.sqrt(2) * 6, "standard deviation"),
    (exercises.check_dominance_threshold, CROSSOVER, 8, "Δf = 1"),
    (exercises.check_dominance_threshold, CROSSOVER, 2 * 1.5**2, "multiplied by ε"),
    (exercises.check_dominance_threshold, CROSSOVER, 6, "noise scale b"),
    (exercises.check_dominance_threshold, CROSSOVER, 12, "square b first"),
]


@pytest.mark.parametrize("check, right, wrong, words", MISTAKES)
def test_each_known_mistake_gets_its_own_message(check, right, wrong, words):
    assert_checker_contract(check, right, wrong)
    verdict = check(wrong)
    assert verdict.correct is False and words in verdict.message, verdict.message
    assert f"{right:.4f}" not in verdict.message and f"{right:g}" not in verdict.message.split(":", 1)[1]


def test_an_unlisted_wrong_answer_gets_the_generic_hint():
    verdict = exercises.check_accuracy_bound(1.0)
    assert verdict.correct is False and "union bound" in verdict.message


def test_messages_write_beta_for_the_failure_probability():
    for check, right in ((exercises.check_accuracy_bound, BOUND), (exercises.check_delta_for_bound, BETA)):
        assert "β" in check(right).message and "δ" not in check(right).message


# -- exercise 4: my_accuracy_bound ---------------------------------------------------------------

def reference(k, beta, sensitivity, epsilon):
    return math.log(k / beta) * sensitivity / epsilon


def test_the_reference_solution_passes_and_numpy_answers_too():
    assert exercises.check_accuracy_bound_function(reference).correct is True
    vectorised = exercises.check_accuracy_bound_function(lambda k, b, s, e: np.log(np.float64(k) / b) * s / e)
    assert vectorised.correct is True


def test_not_answered_yet_is_your_turn():
    assert exercises.check_accuracy_bound_function(...).correct is None


@pytest.mark.parametrize("wrong, case, words", [
    (lambda k, b, s, e: math.log10(k / b) * s / e, "case 1 of", "log10"),
    (lambda k, b, s, e: math.log2(k / b) * s / e, "case 1 of", "log2"),
    (lambda k, b, s, e: math.log(1 / b) * s / e, "case 1 of", "ONE noise"),
    (lambda k, b, s, e: math.log(k * b) * s / e, "case 1 of", "ln(k·β)"),
    (lambda k, b, s, e: k * math.log(1 / b) * s / e, "case 1 of", "inside the logarithm"),
    (lambda k, b, s, e: math.log(k / (1 - b)) * s / e, "case 1 of", "confidence 1 − β"),
    (lambda k, b, s, e: math.log(k / b) * s, "case 2 of", "forgot to divide by ε"),
    (lambda k, b, s, e: math.log(k / b) * s * e, "case 2 of", "multiplied by ε"),
    (lambda k, b, s, e: math.log(k / b) / e, "case 3 of", "left out Δf"),
    (lambda k, b, s, e: math.log(k / b + 1) * s / e, "case 1 of", ""),   # an unlisted mistake: the case, no guess
    (lambda k, b, s, e: "12.2", "case 1 of", ""),
])
def test_typical_wrong_functions_fail_naming_the_case_and_the_mistake(wrong, case, words):
    verdict = exercises.check_accuracy_bound_function(wrong)
    assert verdict.correct is False
    assert case in verdict.message and words in verdict.message, verdict.message


def test_a_function_that_raises_is_reported_not_crashed():
    def broken(k, beta, sensitivity, epsilon):
        raise ZeroDivisionError("oops")
    verdict = exercises.check_accuracy_bound_function(broken)
    assert verdict.correct is False and "raised ZeroDivisionError" in verdict.message


@pytest.mark.parametrize("name, call", [
    ("laplace_accuracy_bound", lambda k, b, s, e: dp.laplace_accuracy_bound(k, b, s, e)),
    ("histogram_noise", lambda k, b, s, e: dp.histogram_noise(s, e, k, b).linf_bound),
    ("accuracy_monte_carlo", lambda k, b, s, e: dp.accuracy_monte_carlo(np.zeros(k), b, s, e, runs=1).bound),
])
def test_calling_the_dpteach_function_is_refused_and_restored_afterwards(name, call):
    original = getattr(dp, name)
    verdict = exercises.check_accuracy_bound_function(call)
    assert verdict.correct is False and f"dp.{name}" in verdict.message
    assert getattr(dp, name) is original
    assert dp.laplace_accuracy_bound(10_000, 0.05, 1, 1) == pytest.approx(math.log(200_000))
