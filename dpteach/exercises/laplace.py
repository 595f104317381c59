"""Checkers for chapters 00 and 02: the Laplace distribution (Definition 3.2, Fact 3.7)."""

from __future__ import annotations

import math

from ..laplace import laplace_scale, laplace_tail
from ._base import Feedback, as_number, compare

__all__ = ["check_scale_for_count", "check_tail_probability", "check_epsilon_for_std"]


def check_scale_for_count(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 00, the trial exercise: the Laplace scale b = Δf/ε for a count (Δf = 1) at ε = 0.5."""
    expected = laplace_scale(1.0, epsilon)
    return compare(answer, expected, f"b = Δf/ε = 1/{epsilon:g} = {expected:g}.",
                    "A count has Δf = 1; divide by ε.")



def check_tail_probability(answer, scale: float = 2.0, threshold: float = 6.0) -> Feedback:
    """Ch. 02, exercise 1: Pr[|Y| ≥ 6] for Y ~ Lap(2)."""
    expected = laplace_tail(threshold / scale)
    return compare(answer, expected,
                    f"6 = 3·b, so Fact 3.7 gives exp(−3) = {expected:.4f}.",
                    "Write the threshold as t·b and use Fact 3.7: Pr[|Y| ≥ t·b] = exp(−t).", rel=1e-3)


def check_epsilon_for_std(answer, std: float = 10.0, sensitivity: float = 1.0) -> Feedback:
    """Ch. 02, exercise 2: which ε gives a count (Δf = 1) noise with standard deviation 10?"""
    expected = sensitivity * math.sqrt(2) / std
    value = as_number(answer)
    if isinstance(value, float) and value > 0 and not math.isclose(laplace_scale(sensitivity, value) * math.sqrt(2),
                                                                   std, rel_tol=1e-3):
        return Feedback(False, f"with ε = {value:g} the noise has std √2·Δf/ε = "
                               f"{math.sqrt(2) * sensitivity / value:.4g}, not {std:g}. "
                               "The variance of Lap(b) is 2b², so std = √2·b; solve for ε = Δf/b.")
    return compare(answer, expected, f"std = √2·b = 10 means b = {std / math.sqrt(2):.4f}, "
                                      f"so ε = Δf/b = {expected:.4f}.",
                    "The variance of Lap(b) is 2b², so std = √2·b; solve for ε = Δf/b.", rel=1e-3)
