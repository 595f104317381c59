"""Checkers for chapter 07: private selection."""

from __future__ import annotations

import math

from ..selection import (
    above_threshold_accuracy,
    exponential_mechanism_probabilities,
    report_noisy_max_probabilities,
)
from ._base import Feedback, as_number, compare

__all__ = ["check_above_threshold_alpha", "check_exponential_probability", "check_noisy_max_upset"]


def check_noisy_max_upset(answer, counts=(10, 8), epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 1: Report Noisy Max on two counts, 10 and 8, at ε = 0.5: the probability that it
    returns the smaller one."""
    expected = float(report_noisy_max_probabilities(list(counts), epsilon)[1])
    return compare(answer, expected,
                    f"with b = 1/ε = {1 / epsilon:g} and d = {counts[0] - counts[1]}: ¼·e^(−d/b)·(2 + d/b) = "
                    f"{expected:.4f}.",
                    "The smaller count wins when its noise beats the other's by more than d = 2. Integrate, or use "
                    "dp.report_noisy_max_probabilities.", rel=1e-3)


def check_exponential_probability(answer, utilities=(47, 43, 31, 22, 12), sensitivity: float = 2.0,
                                  epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 2: the venue scores 47, 43, 31, 22, 12 (Δu = 2) at ε = 0.5: the probability that the
    exponential mechanism chooses the second venue (score 43)."""
    expected = float(exponential_mechanism_probabilities(list(utilities), sensitivity, epsilon)[1])
    wrong = float(exponential_mechanism_probabilities(list(utilities), sensitivity / 2, epsilon)[1])
    value = as_number(answer)
    if isinstance(value, float) and math.isclose(value, wrong, rel_tol=1e-3):
        return Feedback(False, f"{value:g} uses exp(ε·u/Δu). Definition 3.4 divides by 2Δu: exp(ε·u/(2Δu)).")
    return compare(answer, expected,
                    f"exp(ε·43/(2Δu)) divided by the sum of exp(ε·u/(2Δu)) over the five venues = {expected:.4f}.",
                    "Pr[r] = exp(ε·u(r)/(2Δu)) / Σ exp(ε·u(r′)/(2Δu)).", rel=1e-3)


def check_above_threshold_alpha(answer, k: int = 1_000, beta: float = 0.05, epsilon: float = 0.5) -> Feedback:
    """Ch. 07, exercise 3: Theorem 3.24's α for AboveThreshold on k = 1,000 queries, β = 0.05, ε = 0.5."""
    expected = above_threshold_accuracy(k, beta, epsilon)
    return compare(answer, expected,
                    f"α = 8(ln k + ln(2/β))/ε = 8(ln {k:,} + ln {2 / beta:g})/{epsilon:g} = {expected:.3f}: it grows "
                    "with ln k, not with k.",
                    "Theorem 3.24: α = 8(ln k + ln(2/β))/ε.", rel=1e-3)
