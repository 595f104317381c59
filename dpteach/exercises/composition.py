"""Checkers for chapter 06: composition, post-processing and the privacy budget."""

from __future__ import annotations

import math

from ..composition import PrivacyBudget, advanced_composition_max_k
from ..laplace import laplace_scale
from ._base import Feedback, as_number, compare

__all__ = ["check_queries_bought", "check_session_spend", "check_split_variance"]


def check_session_spend(answer) -> Feedback:
    """Ch. 06, exercise 1: a count of smokers in the north district at ε = 0.3, the same count in the
    south district at ε = 0.5 (disjoint people), then the count of all smokers at ε = 0.2: what has the
    session spent?"""
    budget = PrivacyBudget(10.0)
    budget.spend_parallel([0.3, 0.5], label="smokers by district")
    budget.spend(0.2, label="all smokers")
    expected = budget.spent_epsilon
    value = as_number(answer)
    if isinstance(value, float) and math.isclose(value, 1.0):
        return Feedback(False, "1 is what sequential composition of all three would cost. The two districts are "
                               "disjoint: nobody is in both, so they compose in parallel (the larger ε).")
    return compare(answer, expected,
                    f"the districts are disjoint, so together they cost max(0.3, 0.5) = 0.5 (parallel "
                    f"composition); the count of everyone adds 0.2 (Theorem 3.16): {expected:g}.",
                    "Disjoint parts cost the largest of their ε; answers about the same people add up.")


def check_queries_bought(answer, total: float = 1.0, epsilon: float = 0.01, delta_prime: float = 1e-6) -> Feedback:
    """Ch. 06, exercise 2: with a total ε′ = 1 and δ′ = 1e-6, how many queries at ε = 0.01 does advanced
    composition (Theorem 3.20) allow?"""
    expected = advanced_composition_max_k(total, epsilon, delta_prime)
    basic = math.floor(total / epsilon * (1 + 1e-12))          # kε ≤ ε′, Theorem 3.16
    return compare(answer, expected,
                    f"k = {expected}: √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ {total:g} holds up to k = {expected}, "
                    f"against {basic} by basic composition.",
                    "Solve √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ ε′ for the largest whole k "
                    "(dp.advanced_composition_max_k does it).", rel=0, abs_tol=0.5)


def check_split_variance(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 06, exercise 3: a count is answered twice at ε/2 each (ε = 1) and the two answers are
    averaged. What is the variance of the average?"""
    b = laplace_scale(1.0, epsilon / 2)
    expected = 2 * b**2 / 2
    one = 2 * laplace_scale(1.0, epsilon) ** 2
    return compare(answer, expected,
                    f"each answer has noise Lap(2/ε) = Lap({b:g}), variance 2·{b:g}² = {2 * b**2:g}; the average of "
                    f"two independent ones has half that, {expected:g}: twice the variance {one:g} of one answer at ε.",
                    "Each answer at ε/2 has noise Lap(Δf/(ε/2)) with variance 2b²; averaging two independent "
                    "answers halves the variance.")
