"""Checkers for chapter 06: composition, post-processing and the privacy budget."""

from __future__ import annotations

import math

from ..composition import PrivacyBudget, advanced_composition_max_k
from ..laplace import laplace_scale
from ._base import Feedback, Mistake, compare

__all__ = ["check_queries_bought", "check_session_spend", "check_split_variance"]


def check_session_spend(answer) -> Feedback:
    """Ch. 06, exercise 1: a count of smokers in the north district at ε = 0.3, the same count in the
    south district at ε = 0.5 (disjoint people), then the count of all smokers at ε = 0.2: what has the
    session spent?"""
    budget = PrivacyBudget(10.0)
    budget.spend_parallel([0.3, 0.5], label="smokers by district")
    budget.spend(0.2, label="all smokers")
    expected = budget.spent_epsilon
    mistakes = [
        Mistake(0.3 + 0.5 + 0.2, "that is sequential composition of all three (Theorem 3.16). The two districts "
                                 "are disjoint: nobody is in both, so they compose in parallel and cost the larger ε, "
                                 "not the sum."),
        Mistake(max(0.3, 0.5, 0.2), "that charges only the largest ε. Parallel composition applies to the two "
                                    "disjoint districts; the count of the whole town asks about the same people "
                                    "again, so its ε adds on top (sequential composition)."),
        Mistake(0.3 + 0.5, "that is the two districts added up and the whole-town count forgotten: the districts "
                           "are disjoint (parallel: the larger ε), and the third query adds its own ε."),
    ]
    return compare(answer, expected,
                   f"the districts are disjoint, so together they cost max(0.3, 0.5) = 0.5 (parallel "
                   f"composition); the count of everyone adds 0.2 (Theorem 3.16): {expected:g}.",
                   "Disjoint parts cost the largest of their ε; answers about the same people add up.",
                   mistakes=mistakes)


def check_queries_bought(answer, total: float = 1.0, epsilon: float = 0.01, delta_prime: float = 1e-6) -> Feedback:
    """Ch. 06, exercise 2: with a total ε′ = 1 and δ′ = 1e-6, how many queries at ε = 0.01 does advanced
    composition (Theorem 3.20) allow?"""
    expected = advanced_composition_max_k(total, epsilon, delta_prime)
    basic = math.floor(total / epsilon * (1 + 1e-12))          # kε ≤ ε′, Theorem 3.16
    # √(2k ln(1/δ′))·ε ≤ ε′ alone, without Theorem 3.20's second term kε(e^ε − 1)
    first_term_only = math.floor(total**2 / (2 * math.log(1 / delta_prime) * epsilon**2))
    # the same with log10 for ln: solve √(2k log10(1/δ′))·ε + kε(e^ε − 1) ≤ ε′ by bisection on k
    def fits_log10(k):
        return math.sqrt(2 * k * math.log10(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon) <= total
    low, high = 0, 10 * basic * basic
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fits_log10(mid) else (low, mid)
    mistakes = [
        Mistake(basic, "that is basic composition (Theorem 3.16: kε ≤ ε′). The exercise asks what advanced "
                       "composition (Theorem 3.20) allows, at the price of δ′."),
        Mistake(first_term_only, "that solves √(2k ln(1/δ′))·ε ≤ ε′ only. Theorem 3.20's ε′ has a second term, "
                                 "kε(e^ε − 1), which grows linearly in k."),
        Mistake(low, "that uses log10. Theorem 3.20 has the natural logarithm, ln(1/δ′)."),
    ]
    return compare(answer, expected,
                   f"k = {expected}: √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ {total:g} holds up to k = {expected}, "
                   f"against {basic} by basic composition.",
                   "Solve √(2k ln(1/δ′))·ε + kε(e^ε − 1) ≤ ε′ for the largest whole k "
                   "(dp.advanced_composition_max_k does it).", rel=0, abs_tol=0.5, mistakes=mistakes)


def check_split_variance(answer, epsilon: float = 1.0) -> Feedback:
    """Ch. 06, exercise 3: a count is answered twice at ε/2 each (ε = 1) and the two answers are
    averaged. What is the variance of the average?"""
    b = laplace_scale(1.0, epsilon / 2)
    expected = 2 * b**2 / 2
    one = 2 * laplace_scale(1.0, epsilon) ** 2
    mistakes = [
        Mistake(2 * b**2, "that is the variance of one answer at ε/2. The average of two independent answers has "
                          "half the variance of one."),
        Mistake(2 * (2 * b**2), "that is the variance of the sum of the two answers. The average divides the sum "
                                "by 2, so its variance by 4."),
        Mistake(one, "that is the variance of one answer at the full ε (noise Lap(Δf/ε)), or a standard deviation "
                     "where the variance is asked, or a variance of b² where Lap(b) has 2b². Each answer here "
                     "has noise Lap(Δf/(ε/2)), of variance 2b²; then average two."),
        Mistake(2 * (b / 2) ** 2 / 2, "that uses the scale Δf/(2ε). Spending ε/2 doubles the scale: b = Δf/(ε/2)."),
    ]
    return compare(answer, expected,
                   f"each answer has noise Lap(2/ε) = Lap({b:g}), variance 2·{b:g}² = {2 * b**2:g}; the average of "
                   f"two independent ones has half that, {expected:g}: twice the variance {one:g} of one answer at ε.",
                   "Each answer at ε/2 has noise Lap(Δf/(ε/2)) with variance 2b²; averaging two independent "
                   "answers halves the variance.", mistakes=mistakes)
