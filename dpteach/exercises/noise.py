"""Chapter 09's checkers: noise on a computer."""

from __future__ import annotations

import math

from ..discrete import discrete_laplace_scale, discrete_laplace_variance
from ._base import Feedback, compare

__all__ = ["check_discrete_laplace_variance", "check_audit_epsilon"]


def check_discrete_laplace_variance(answer, epsilon: float = 0.5) -> Feedback:
    """Ch. 09, exercise 1: the variance of the discrete Laplace noise on a count (Δf = 1) at ε = 0.5."""
    scale = discrete_laplace_scale(1, epsilon)
    expected = discrete_laplace_variance(scale)
    alpha = math.exp(-1 / float(scale))
    return compare(answer, expected,
                    f"α = e^(−ε/Δf) = {alpha:.4f}, so 2α/(1 − α)² = {expected:.4f}: a little below the continuous "
                    f"Laplace's 2(Δf/ε)² = {2 * float(scale) ** 2:g}.",
                    "The discrete Laplace with α = e^(−ε/Δf) has variance 2α/(1 − α)².", rel=1e-3)


def check_audit_epsilon(answer, lower: float = 0.30, upper: float = 0.09, delta: float = 0.01) -> Feedback:
    """Ch. 09, exercise 2: the largest ε an audit proves violated from L_x(S) = 0.30, U_y(S) = 0.09, δ = 0.01."""
    expected = math.log((lower - delta) / upper)
    return compare(answer, expected,
                    f"L_x > e^ε′·U_y + δ holds for every ε′ < ln((L_x − δ)/U_y) = ln({lower - delta:.2f}/{upper:g}) "
                    f"= {expected:.4f}: a claim of ε = 1 is refuted, one of ε = 1.2 is not.",
                    "Solve L_x = e^ε·U_y + δ for ε: subtract δ first, then divide and take the log.", rel=1e-3)
